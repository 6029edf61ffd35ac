import VerticalsContract
import VerticalsWire

/// Every route of a set of contracts (as running daemons describe them, or compiled), and the
/// matching of a URL against them.
///
/// A URL matches a route when it has as many segments and every literal segment is equal.
/// When several routes match, the one with the most literal segments wins
/// (`/clinics/nearest` over `/clinics/{id}`); a tie is ``RouteError/ambiguous(path:candidates:)``.
///
/// ```swift
/// let table = RouteTable(described: [try DescribedContract(description)])
/// let call = try table.resolve("verticals://clinics/nearest?lat=51.5&lon=-0.12")
/// call.operation.fullName  // clinics.nearest
/// ```
public struct RouteTable: Sendable {
    /// One routed operation.
    public struct Entry: Sendable {
        /// The route.
        public let route: Route
        /// The operation it reaches.
        public let operation: DescribedOperation

        /// `template  →  service.operation`, for lists and messages.
        public var summary: String { "\(route.template)  →  \(operation.fullName)" }
    }

    /// A URL resolved to a call: the operation and its Input.
    public struct Call: Sendable {
        /// The operation to call.
        public let operation: DescribedOperation
        /// The Input, built from the URL's path and query.
        public let input: MessageValue
        /// The route that matched.
        public let route: Route
    }

    /// A URL matched to a route: the operation and the Input's JSON, not yet checked against
    /// its schema (so a caller can complete it first, e.g. with a stored token).
    public struct Match: Sendable {
        /// The operation to call.
        public let operation: DescribedOperation
        /// The route that matched.
        public let route: Route
        /// The Input's members, from the URL's path and query, converted to their fields' types.
        public let json: JSONValue

        /// `json`, or the JSON given, as the operation's Input; a missing required field is named.
        public func input(_ completed: JSONValue? = nil) throws(RouteError) -> MessageValue {
            try RouteParameters.input(for: operation, json: completed ?? json)
        }
    }

    /// Every routed operation, in contract order.
    public let entries: [Entry]

    /// The routes of `operations`, in their order.
    public init(operations: [DescribedOperation]) {
        entries = operations.compactMap { operation in operation.route.map { Entry(route: $0, operation: operation) } }
    }

    /// The routes of the contracts running daemons described, each vertical's kept to its own
    /// prefix (``owns(_:of:)``): a description cannot take a URL of another vertical, nor one
    /// under a name no vertical has, whichever vertical answers first.
    public init(described contracts: [DescribedContract]) {
        self.init(operations: contracts.flatMap(\.operations).filter { Self.owned($0) })
    }

    /// The routes `contracts` describe that ``init(described:)`` leaves out, because they lie
    /// outside their vertical's prefix: what `svc-supervisor routes` reports as not served.
    public static func unowned(in contracts: [DescribedContract]) -> [Entry] {
        RouteTable(operations: contracts.flatMap(\.operations).filter { !owned($0) }).entries
    }

    /// Whether a vertical named `service` may serve `route`: its first segment is the literal
    /// `service` (`/clinics/nearest` is clinics'). A route under another name, or starting with a
    /// `{field}` that would take every URL of its length, is no vertical's, so that no
    /// description, honest or not, decides who serves a URL outside its own name.
    public static func owns(_ route: Route, of service: String) -> Bool {
        guard case .literal(let first)? = route.segments.first else { return false }
        return first == service
    }

    private static func owned(_ operation: DescribedOperation) -> Bool {
        operation.route.map { owns($0, of: operation.service) } ?? true
    }

    /// The routes declared by compiled `contracts` (tests, and tools that link them).
    public init(contracts: [any ServiceContract.Type]) {
        self.init(operations: contracts.flatMap { $0.operations.map(DescribedOperation.init) })
    }

    /// The entries that match `url`'s path, most specific first, with their path parameters.
    package func matches(_ url: RouteURL) -> [(entry: Entry, parameters: [(String, String)])] {
        entries.compactMap { entry -> (Entry, [(String, String)])? in
            guard entry.route.segments.count == url.segments.count else { return nil }
            var parameters: [(String, String)] = []
            for (segment, text) in zip(entry.route.segments, url.segments) {
                switch segment {
                case .literal(let literal): guard literal == text else { return nil }
                case .parameter(let name): parameters.append((name, text))
                }
            }
            return (entry, parameters)
        }
        .sorted { $0.0.route.literalCount > $1.0.route.literalCount }
    }

    /// The call that `text` stands for.
    public func resolve(_ text: String) throws(RouteError) -> Call {
        let found = try match(text)
        return Call(operation: found.operation, input: try found.input(), route: found.route)
    }

    /// The route and Input JSON that `text` stands for.
    public func match(_ text: String) throws(RouteError) -> Match {
        let url = try RouteURL(text)
        let found = matches(url)
        guard let best = found.first else {
            let sameVertical = entries.filter { entry in
                if case .literal(let first) = entry.route.segments.first { first == url.segments.first } else { false }
            }
            throw .noRoute(path: url.path, candidates: (sameVertical.isEmpty ? entries : sameVertical).map(\.summary))
        }
        let tied = found.filter { $0.entry.route.literalCount == best.entry.route.literalCount }
        guard tied.count == 1 else {
            throw .ambiguous(path: url.path, candidates: tied.map(\.entry.summary))
        }
        let json = try RouteParameters.json(
            for: best.entry.operation, route: best.entry.route,
            parameters: best.parameters + url.query.map { ($0.name, $0.value) })
        return Match(operation: best.entry.operation, route: best.entry.route, json: json)
    }

    /// Pairs of routes that some URL would match equally well: a contract mistake, checked by tests.
    public func conflicts() -> [(Entry, Entry)] {
        var found: [(Entry, Entry)] = []
        for (index, first) in entries.enumerated() {
            for second in entries[(index + 1)...] where Self.overlap(first.route, second.route) {
                found.append((first, second))
            }
        }
        return found
    }

    /// Whether one URL can match both routes with the same specificity.
    package static func overlap(_ first: Route, _ second: Route) -> Bool {
        guard first.segments.count == second.segments.count, first.literalCount == second.literalCount else {
            return false
        }
        return zip(first.segments, second.segments).allSatisfy { pair in
            if case .literal(let a) = pair.0, case .literal(let b) = pair.1 { return a == b }
            return true
        }
    }
}
