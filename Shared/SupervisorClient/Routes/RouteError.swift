import VerticalsContract
import VerticalsWire

/// Why a URL could not be turned into a call, with what a person needs to fix it: the
/// candidates when no route or several match, the field and the expected type when a
/// parameter does not convert.
public struct RouteError: CodedError {
    /// What kept the URL from becoming a call; new codes may be added.
    public typealias Code = ErrorKind<RouteError>

    /// What kept the URL from becoming a call.
    public let code: Code
    /// What was wrong, with what a person needs to fix it.
    public let message: String
    /// The routes a person may have meant (for `Code/noRoute` and `Code/ambiguous`), else empty.
    public let candidates: [String]

    /// An error of `code` saying `message`, offering `candidates`.
    public init(_ code: Code, _ message: String, candidates: [String] = []) {
        self.code = code
        self.message = message
        self.candidates = candidates
    }

    /// `text` is not a `verticals://` URL or an absolute path, for `reason`.
    public static func malformedURL(_ text: String, reason: String) -> RouteError {
        RouteError(.malformedURL, "\"\(text)\" is not a verticals:// URL: \(reason)")
    }

    /// No route has `path`; `candidates` are the routes under the same first segment, or all.
    public static func noRoute(path: String, candidates: [String]) -> RouteError {
        RouteError(.noRoute, "no route matches \(path)" + list(candidates, heading: "routes"), candidates: candidates)
    }

    /// Several equally specific routes, `candidates`, match `path`.
    public static func ambiguous(path: String, candidates: [String]) -> RouteError {
        RouteError(
            .ambiguous, "\(path) matches several routes equally well" + list(candidates, heading: "candidates"),
            candidates: candidates)
    }

    /// Parameter `name` names no field of `operation`'s Input, which takes `known`.
    public static func unknownParameter(_ name: String, operation: String, known: [String]) -> RouteError {
        RouteError(
            .unknownParameter, "\(operation) has no parameter \"\(name)\"; it takes: \(known.joined(separator: ", "))")
    }

    /// Parameter `name` is given twice, but `operation` takes one value for it.
    public static func repeatedParameter(_ name: String, operation: String) -> RouteError {
        RouteError(.repeatedParameter, "\"\(name)\" is given more than once, but \(operation) takes one value for it")
    }

    /// Parameter `parameter` (field `field` of `message`) is `value`, which is not `expected`.
    public static func conversion(
        parameter: String, field: String, message: String, value: String, expected: String
    ) -> RouteError {
        let named = parameter == field ? field : "\(parameter) (field \(field))"
        return RouteError(.conversion, "\(named) of \(message): expected \(expected), got \"\(value)\"")
    }

    /// Field `field` of `message` is a `type`, which a URL cannot carry.
    public static func unsupportedField(_ field: String, message: String, type: String) -> RouteError {
        RouteError(
            .unsupportedField,
            "\(field) of \(message) is a \(type), which a URL cannot carry; use `svc-supervisor call` with JSON")
    }

    /// The Input of `operation` built from the URL is not valid, for `reason`.
    public static func invalidInput(operation: String, reason: String) -> RouteError {
        RouteError(.invalidInput, "\(operation): \(reason)")
    }

    private static func list(_ items: [String], heading: String) -> String {
        items.isEmpty ? "" : "; \(heading):\n" + items.map { "  \($0)" }.joined(separator: "\n")
    }
}

extension ErrorKind where Domain == RouteError {
    /// The text is not a `verticals://` URL or an absolute path.
    public static var malformedURL: Self { Self("malformedURL") }
    /// No route has this path; ``RouteError/candidates`` are the routes under the same first
    /// segment, or all.
    public static var noRoute: Self { Self("noRoute") }
    /// Several equally specific routes match (``RouteError/candidates``); the URL cannot say
    /// which is meant.
    public static var ambiguous: Self { Self("ambiguous") }
    /// A path or query parameter that names no field of the operation's Input.
    public static var unknownParameter: Self { Self("unknownParameter") }
    /// A parameter given twice for a field that takes one value.
    public static var repeatedParameter: Self { Self("repeatedParameter") }
    /// A parameter whose text does not convert to its field's type.
    public static var conversion: Self { Self("conversion") }
    /// A field that a URL cannot carry (a nested message).
    public static var unsupportedField: Self { Self("unsupportedField") }
    /// The Input built from the URL is not valid (e.g. a required field is missing).
    public static var invalidInput: Self { Self("invalidInput") }
}
