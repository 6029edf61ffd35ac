import VerticalsContract

/// Why a URL could not be turned into a call, with what a person needs to fix it: the
/// candidates when no route or several match, the field and the expected type when a
/// parameter does not convert.
public enum RouteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text is not a `verticals://` URL or an absolute path.
    case malformedURL(String, reason: String)
    /// No route has this path; `candidates` are the routes under the same first segment, or all.
    case noRoute(path: String, candidates: [String])
    /// Several equally specific routes match; the URL cannot say which is meant.
    case ambiguous(path: String, candidates: [String])
    /// A path or query parameter that names no field of the operation's Input.
    case unknownParameter(String, operation: String, known: [String])
    /// A parameter given twice for a field that takes one value.
    case repeatedParameter(String, operation: String)
    /// A parameter whose text does not convert to its field's type.
    case conversion(parameter: String, field: String, message: String, value: String, expected: String)
    /// A field that a URL cannot carry (a nested message).
    case unsupportedField(String, message: String, type: String)
    /// The Input built from the URL is not valid (e.g. a required field is missing).
    case invalidInput(operation: String, reason: String)

    public var description: String {
        switch self {
        case .malformedURL(let text, let reason):
            return "\"\(text)\" is not a verticals:// URL: \(reason)"
        case .noRoute(let path, let candidates):
            return "no route matches \(path)" + Self.list(candidates, heading: "routes")
        case .ambiguous(let path, let candidates):
            return "\(path) matches several routes equally well" + Self.list(candidates, heading: "candidates")
        case .unknownParameter(let name, let operation, let known):
            return "\(operation) has no parameter \"\(name)\"; it takes: \(known.joined(separator: ", "))"
        case .repeatedParameter(let name, let operation):
            return "\"\(name)\" is given more than once, but \(operation) takes one value for it"
        case .conversion(let parameter, let field, let message, let value, let expected):
            let named = parameter == field ? field : "\(parameter) (field \(field))"
            return "\(named) of \(message): expected \(expected), got \"\(value)\""
        case .unsupportedField(let field, let message, let type):
            return "\(field) of \(message) is a \(type), which a URL cannot carry; use `svc-supervisor call` with JSON"
        case .invalidInput(let operation, let reason):
            return "\(operation): \(reason)"
        }
    }

    private static func list(_ items: [String], heading: String) -> String {
        items.isEmpty ? "" : "; \(heading):\n" + items.map { "  \($0)" }.joined(separator: "\n")
    }
}
