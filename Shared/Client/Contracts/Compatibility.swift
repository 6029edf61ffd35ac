import VerticalsContract
import VerticalsWire

/// Compares two versions of the suite's contracts (`ContractLock`s) and names every
/// difference a deployed peer could notice: the breaking-change guard.
///
/// Breaking: a service or operation removed (or renamed), a field removed, a tag reused
/// for another field, a field's type changed, a field made required (or a required field
/// added), a default changed, a declared error code removed, an enumeration case removed, a
/// bound lowered on a message an Input reaches or raised (or removed) on one an Output reaches.
/// Additive (reported, never refused): a new service, operation, optional/defaulted/repeated
/// field, error code or enumeration case; a bound declared where there was none (the lock of a
/// version before bounds has none, and nothing longer than the bound was ever meaningful).
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
    ///
    /// Both are read back into schemas (`ServiceDescription/catalog(of:)`), so the guard
    /// compares the same `MessageSchema`s the codec runs on; a description that does not read
    /// back is itself a breaking finding.
    public static func compare(_ old: Daemon.Description, _ new: Daemon.Description) -> [Finding] {
        let oldCatalog: SchemaCatalog
        let newCatalog: SchemaCatalog
        do {
            (oldCatalog, newCatalog) = try ServiceDescription.catalogs(of: old, new)
        } catch {
            return [Finding(.descriptionInvalid, old.name, "", "a description does not read back as schemas: \(error)")]
        }
        var walk = MessageComparison(service: old.name, old: oldCatalog, new: newCatalog)
        for oldOperation in old.operations {
            let place = oldOperation.name
            guard let newOperation = new.operations.first(where: { $0.name == oldOperation.name }) else {
                walk.note(
                    .operationRemoved, place, "the operation is gone (removed or renamed): callers get unimplemented")
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
            walk.compare(oldOperation.input, newOperation.input, place: "\(place) input", reader: .new)
            walk.compare(oldOperation.output, newOperation.output, place: "\(place) output", reader: .old)
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
    let old: SchemaCatalog
    let new: SchemaCatalog
    var findings: [Compatibility.Finding] = []
    private var compared: Set<String> = []

    init(service: String, old: SchemaCatalog, new: SchemaCatalog) {
        self.service = service
        self.old = old
        self.new = new
    }

    mutating func note(_ kind: Compatibility.Finding.Kind, _ place: String, _ detail: String) {
        findings.append(Compatibility.Finding(kind, service, place, detail))
    }

    /// Which version reads the messages compared: the new one reads an Input (older callers
    /// write it), the old one an Output (older callers read what the new version writes).
    enum Reader { case old, new }

    /// Compares message `oldName` (old version) with `newName` (new version); each pair once per reader.
    mutating func compare(_ oldName: String, _ newName: String, place: String, reader: Reader) {
        guard compared.insert("\(oldName)|\(newName)|\(reader)").inserted else { return }
        guard let oldSchema = old.message(named: oldName), let newSchema = new.message(named: newName) else {
            note(.typeChanged, place, "message \(oldName) or \(newName) has no field table in its description")
            return
        }
        for oldField in oldSchema.fields {
            let at = "\(newName).\(oldField.name)"
            guard let newField = newSchema.field(tag: oldField.tag) else {
                note(.fieldRemoved, at, "field `\(oldField.name)` (tag \(oldField.tag)) is gone")
                continue
            }
            if newField.name != oldField.name {
                note(
                    .tagReused, at,
                    "tag \(oldField.tag) was `\(oldField.name)` and is now `\(newField.name)`: retire the tag and "
                        + "add a field with a new one")
            }
            compareType(oldField, newField, at: at, reader: reader)
            comparePresence(oldField, newField, at: at)
            compareBound(oldField, newField, at: at, reader: reader)
        }
        for newField in newSchema.fields where oldSchema.field(tag: newField.tag) == nil {
            let at = "\(newName).\(newField.name)"
            if newField.presence == .required {
                note(.madeRequired, at, "new field `\(newField.name)` is required: older peers never send it")
            } else {
                note(
                    .fieldAdded, at,
                    "new \(Self.name(newField.presence)) field `\(newField.name)` (tag \(newField.tag))")
            }
        }
    }

    /// A bound that the reader's version holds and the writer's does not promise breaks them.
    private mutating func compareBound(
        _ oldField: FieldDescriptor, _ newField: FieldDescriptor, at: String, reader: Reader
    ) {
        guard oldField.maxBytes != newField.maxBytes else { return }
        let (before, after) = (
            oldField.maxBytes.map { "\($0) bytes" } ?? "none", newField.maxBytes.map { "\($0) bytes" } ?? "none"
        )
        let (readers, writers) =
            reader == .new ? (newField.maxBytes, oldField.maxBytes) : (oldField.maxBytes, newField.maxBytes)
        // Broken when the reader refuses values the writer may send: a writer bounded more loosely
        // (or not at all) than a reader that had a bound before.
        let broken: Bool
        switch (readers, writers) {
        case (let read?, let written?): broken = read < written
        case (_?, nil): broken = oldField.maxBytes != nil
        default: broken = false
        }
        note(broken ? .boundBroken : .boundChanged, at, "bound changed from \(before) to \(after)")
    }

    private mutating func compareType(
        _ oldField: FieldDescriptor, _ newField: FieldDescriptor, at: String, reader: Reader
    ) {
        switch (oldField.type, newField.type) {
        case (.message(let oldMessage), .message(let newMessage)):
            compare(oldMessage.name, newMessage.name, place: at, reader: reader)
        case (.enumeration(let oldEnum), .enumeration(let newEnum)):
            for name in oldEnum.cases where !newEnum.cases.contains(name) {
                note(.enumCaseRemoved, at, "enumeration \(newEnum.name) lost case `\(name)`")
            }
            for name in newEnum.cases where !oldEnum.cases.contains(name) {
                note(.enumCaseAdded, at, "enumeration \(newEnum.name) gained case `\(name)`")
            }
        case (let oldType, let newType) where oldType != newType:
            note(.typeChanged, at, "type changed from `\(oldType)` to `\(newType)`")
        default:
            break
        }
    }

    private mutating func comparePresence(_ oldField: FieldDescriptor, _ newField: FieldDescriptor, at: String) {
        let (before, after) = (Self.name(oldField.presence), Self.name(newField.presence))
        switch (oldField.presence, newField.presence) {
        case (let old, .required) where old != .required:
            note(.madeRequired, at, "was \(before), is now required: older peers may leave it out")
        case (.repeated, let new) where new != .repeated, (let new, .repeated) where new != .repeated:
            note(.typeChanged, at, "changed between a single value and a list (\(before) → \(after))")
        case (.defaulted(let oldDefault), .defaulted(let newDefault)) where oldDefault != newDefault:
            let oldText = ServiceDescription.jsonText(of: oldDefault, type: oldField.type)
            let newText = ServiceDescription.jsonText(of: newDefault, type: newField.type)
            note(
                .defaultChanged, at,
                "default changed from \(oldText) to \(newText): older peers that leave it out mean the old one")
        default:
            break
        }
    }

    /// `required`, `optional`, `defaulted` or `repeated`: a presence as `describe` names it.
    private static func name(_ presence: FieldDescriptor.Presence) -> String {
        switch presence {
        case .required: "required"
        case .optional: "optional"
        case .defaulted: "defaulted"
        case .repeated: "repeated"
        }
    }
}
