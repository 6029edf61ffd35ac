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
            let fields = message.fields.lazy.map(\.name)
            if let problem = named(
                "messages[\(index)]", message.name, parts: fields, called: "fields", most: maxFieldsPerMessage,
                partSuffix: ".name")
            {
                return problem
            }
        }
        for (index, enumeration) in description.enums.enumerated() {
            if let problem = named(
                "enums[\(index)]", enumeration.name, parts: enumeration.cases, called: "cases", most: maxCasesPerEnum)
            {
                return problem
            }
        }
        return nil
    }

    /// What is wrong with a message or an enumeration at `place`: more `parts` (its fields' names,
    /// its cases) than `most`, or its name or a part's outside the grammar, the part named at
    /// `place.called[i]partSuffix`.
    private static func named(
        _ place: String, _ entryName: String, parts: some Collection<String>, called: String, most: Int,
        partSuffix: String = ""
    ) -> String? {
        guard parts.count <= most else {
            return "\(place) has \(parts.count) \(called); at most \(most)"
        }
        if let problem = name(entryName, "\(place).name") { return problem }
        for (index, part) in parts.enumerated() {
            if let problem = name(part, "\(place).\(called)[\(index)]\(partSuffix)") { return problem }
        }
        return nil
    }

    private static func name(_ text: String, _ place: String) -> String? {
        WireName.problem(text).map { "\(place) is not a name: \($0)" }
    }
}
