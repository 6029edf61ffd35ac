import IOInterface

/// Compares two versions of the suite's contracts (``ContractLock``s) and names every
/// difference a deployed peer could notice: the breaking-change guard.
///
/// Breaking: a service or operation removed (or renamed), a field removed, a tag reused
/// for another field, a field's type changed, a field made required (or a required field
/// added), a default changed, a declared error code removed, an enumeration case removed.
/// Additive (reported, never refused): a new service, operation, optional/defaulted/repeated
/// field, error code or enumeration case.
///
/// ```swift
/// let findings = Compatibility.compare(old: committedLock, new: .current())
/// let breaking = findings.filter(\.isBreaking)
/// ```
public enum Compatibility {
    /// Every difference between `old` and `new`, breaking ones first within each service.
    public static func compare(old: ContractLock, new: ContractLock) -> [Finding] {
        var findings: [Finding] = []
        for oldService in old.services {
            guard let newService = new.service(oldService.name) else {
                findings.append(Finding(.serviceRemoved, oldService.name, "", "the service is gone"))
                continue
            }
            findings += compare(oldService, newService)
        }
        for newService in new.services where old.service(newService.name) == nil {
            findings.append(Finding(.serviceAdded, newService.name, "", "new service"))
        }
        return findings
    }

    /// Every difference between two versions of one service.
    public static func compare(_ old: Daemon.Description, _ new: Daemon.Description) -> [Finding] {
        var walk = MessageComparison(service: old.name, old: old, new: new)
        for oldOperation in old.operations {
            let place = oldOperation.name
            guard let newOperation = new.operations.first(where: { $0.name == oldOperation.name }) else {
                walk.note(.operationRemoved, place, "the operation is gone (removed or renamed): callers get unimplemented")
                continue
            }
            if newOperation.service != oldOperation.service {
                walk.note(
                    .operationRemoved, place,
                    "travels as \(newOperation.service).\(place), no longer as \(oldOperation.service).\(place)")
            }
            for code in oldOperation.errors where !newOperation.errors.contains(code) {
                walk.note(.errorCodeRemoved, place, "no longer declares error code `\(code.wireName)`")
            }
            for code in newOperation.errors where !oldOperation.errors.contains(code) {
                walk.note(.errorCodeAdded, place, "declares error code `\(code.wireName)`")
            }
            walk.compare(oldOperation.input, newOperation.input, place: "\(place) input")
            walk.compare(oldOperation.output, newOperation.output, place: "\(place) output")
        }
        for newOperation in new.operations where !old.operations.contains(where: { $0.name == newOperation.name }) {
            walk.note(.operationAdded, newOperation.name, "new operation")
        }
        return walk.findings.sorted { $0.isBreaking && !$1.isBreaking }
    }
}

/// Walks the messages two versions of one service reach from the same operation, in pairs.
private struct MessageComparison {
    let service: String
    let oldMessages: [String: Daemon.MessageInfo]
    let newMessages: [String: Daemon.MessageInfo]
    let oldEnums: [String: Daemon.EnumInfo]
    let newEnums: [String: Daemon.EnumInfo]
    var findings: [Compatibility.Finding] = []
    private var compared: Set<String> = []

    init(service: String, old: Daemon.Description, new: Daemon.Description) {
        self.service = service
        oldMessages = Dictionary(old.messages.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        newMessages = Dictionary(new.messages.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        oldEnums = Dictionary(old.enums.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        newEnums = Dictionary(new.enums.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func note(_ kind: Compatibility.Finding.Kind, _ place: String, _ detail: String) {
        findings.append(Compatibility.Finding(kind, service, place, detail))
    }

    /// Compares message `oldName` (old version) with `newName` (new version); each pair once.
    mutating func compare(_ oldName: String, _ newName: String, place: String) {
        guard compared.insert(oldName + "|" + newName).inserted else { return }
        guard let old = oldMessages[oldName], let new = newMessages[newName] else {
            note(.typeChanged, place, "message \(oldName) or \(newName) has no field table in its description")
            return
        }
        for oldField in old.fields {
            let at = "\(newName).\(oldField.name)"
            guard let newField = new.fields.first(where: { $0.tag == oldField.tag }) else {
                note(.fieldRemoved, at, "field `\(oldField.name)` (tag \(oldField.tag)) is gone")
                continue
            }
            if newField.name != oldField.name {
                note(
                    .tagReused, at,
                    "tag \(oldField.tag) was `\(oldField.name)` and is now `\(newField.name)`: retire the tag and "
                        + "add a field with a new one")
            }
            compareType(oldField, newField, at: at)
            comparePresence(oldField, newField, at: at)
        }
        for newField in new.fields where !old.fields.contains(where: { $0.tag == newField.tag }) {
            let at = "\(newName).\(newField.name)"
            if newField.presence == .required {
                note(.madeRequired, at, "new field `\(newField.name)` is required: older peers never send it")
            } else {
                note(.fieldAdded, at, "new \(newField.presence.wireName) field `\(newField.name)` (tag \(newField.tag))")
            }
        }
    }

    private mutating func compareType(_ old: Daemon.FieldInfo, _ new: Daemon.FieldInfo, at: String) {
        let (oldKind, oldName) = Self.split(old.type)
        let (newKind, newName) = Self.split(new.type)
        if oldKind == "message" && newKind == "message" {
            compare(oldName, newName, place: at)
        } else if oldKind == "enum" && newKind == "enum" {
            let oldCases = oldEnums[oldName]?.cases ?? []
            let newCases = newEnums[newName]?.cases ?? []
            for name in oldCases where !newCases.contains(name) {
                note(.enumCaseRemoved, at, "enumeration \(newName) lost case `\(name)`")
            }
            for name in newCases where !oldCases.contains(name) {
                note(.enumCaseAdded, at, "enumeration \(newName) gained case `\(name)`")
            }
        } else if old.type != new.type {
            note(.typeChanged, at, "type changed from `\(old.type)` to `\(new.type)`")
        }
    }

    private mutating func comparePresence(_ old: Daemon.FieldInfo, _ new: Daemon.FieldInfo, at: String) {
        switch (old.presence, new.presence) {
        case (let before, .required) where before != .required:
            note(.madeRequired, at, "was \(before.wireName), is now required: older peers may leave it out")
        case (.repeated, let after) where after != .repeated, (let after, .repeated) where after != .repeated:
            note(.typeChanged, at, "changed between a single value and a list (\(old.presence) → \(new.presence))")
        case (.defaulted, .defaulted) where old.defaultValue != new.defaultValue:
            note(
                .defaultChanged, at,
                "default changed from \(old.defaultValue ?? "none") to \(new.defaultValue ?? "none"): "
                    + "older peers that leave it out mean the old one")
        default:
            break
        }
    }

    /// `message clinics.Clinic` → (`message`, `clinics.Clinic`); `string` → (`string`, ``).
    private static func split(_ type: String) -> (String, String) {
        guard let space = type.firstIndex(of: " ") else { return (type, "") }
        return (String(type[..<space]), String(type[type.index(after: space)...]))
    }
}
