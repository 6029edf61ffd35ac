import VerticalsContract
import VerticalsWire

/// How much of a description from a peer (a callee's answer to `daemon.contractCheck`, a daemon's
/// `daemon.describe`) is judged: the counts no real vertical comes near, and the grammar of its
/// names (`WireName`). A description over a bound, or with a name outside the grammar, is not
/// walked at all: it is refused as one finding, so judging it costs at most these counts.
public enum DescriptionBounds {
    /// The most operations: 1024, as many as one `daemon.contractCheck` asks about.
    public static let maxOperations = 1024
    /// The most messages: 4096.
    public static let maxMessages = 4096
    /// The most enumerations: 1024.
    public static let maxEnums = 1024
    /// The most fields of one message: 1024.
    public static let maxFieldsPerMessage = 1024
    /// The most fields of all its messages together: 16384, so that what judging it makes (a
    /// finding per field at worst) stays small whatever the messages.
    public static let maxFields = 16_384
    /// The most cases of one enumeration: 1024.
    public static let maxCasesPerEnum = 1024
    /// The most error codes one operation declares: 64 (PROTOCOL.md § 9 defines 12).
    public static let maxErrorCodesPerOperation = 64

    /// What puts `description` outside the bounds, in words; nil when it is within them. Reads
    /// each count once, and each name's bytes once, so it costs no more than the bounds allow.
    public static func problem(_ description: Daemon.Description) -> String? {
        if let problem = name(description.name, "the description's name") { return problem }
        guard description.operations.count <= maxOperations else {
            return "it holds \(description.operations.count) operations; at most \(maxOperations) are judged"
        }
        guard description.messages.count <= maxMessages else {
            return "it holds \(description.messages.count) messages; at most \(maxMessages) are judged"
        }
        guard description.enums.count <= maxEnums else {
            return "it holds \(description.enums.count) enumerations; at most \(maxEnums) are judged"
        }
        for (index, operation) in description.operations.enumerated() {
            let place = "operations[\(index)]"
            guard operation.errors.count <= maxErrorCodesPerOperation else {
                return "\(place) declares \(operation.errors.count) error codes; at most \(maxErrorCodesPerOperation)"
            }
            if let problem = name(operation.name, "\(place).name") ?? name(operation.service, "\(place).service")
                ?? name(operation.input, "\(place).input") ?? name(operation.output, "\(place).output")
                ?? operation.event.flatMap({ name($0, "\(place).event") })
            {
                return problem
            }
        }
        let fields = description.messages.reduce(0) { $0 + $1.fields.count }
        guard fields <= maxFields else {
            return "its messages hold \(fields) fields; at most \(maxFields) are judged"
        }
        for (index, message) in description.messages.enumerated() {
            let place = "messages[\(index)]"
            guard message.fields.count <= maxFieldsPerMessage else {
                return "\(place) has \(message.fields.count) fields; at most \(maxFieldsPerMessage)"
            }
            if let problem = name(message.name, "\(place).name") { return problem }
            for (field, info) in message.fields.enumerated() {
                if let problem = name(info.name, "\(place).fields[\(field)].name") { return problem }
            }
        }
        for (index, enumeration) in description.enums.enumerated() {
            let place = "enums[\(index)]"
            guard enumeration.cases.count <= maxCasesPerEnum else {
                return "\(place) has \(enumeration.cases.count) cases; at most \(maxCasesPerEnum)"
            }
            if let problem = name(enumeration.name, "\(place).name") { return problem }
            for (number, name) in enumeration.cases.enumerated() {
                if let problem = self.name(name, "\(place).cases[\(number)]") { return problem }
            }
        }
        return nil
    }

    private static func name(_ text: String, _ place: String) -> String? {
        WireName.problem(text).map { "\(place) is not a name: \($0)" }
    }
}
