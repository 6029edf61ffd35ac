/// A URL path by which an operation can be reached, e.g. with
/// `svc-supervisor open 'verticals://clinics/nearest?lat=51.5&lon=-0.12'`. Data, like the rest
/// of a contract: the tools match URLs against it and build the typed Input from its parts.
///
/// A template is a `/`-separated path whose segments are literals or `{field}` placeholders,
/// each naming a scalar field of the operation's Input. Query parameters name Input fields
/// too; ``aliases`` lets a URL use a short name (`lat`) for a field (`latitude`).
///
/// ```swift
/// Route("/clinics/{id}")
/// Route("/clinics/nearest", aliases: ["lat": "latitude", "lon": "longitude"])
/// ```
public struct Route: Sendable, Hashable, CustomStringConvertible {
    /// One segment of a template.
    public enum Segment: Sendable, Hashable, CustomStringConvertible {
        /// A segment that must appear as written.
        case literal(String)
        /// A segment that takes any value, given to the named parameter.
        case parameter(String)

        public var description: String {
            switch self {
            case .literal(let text): text
            case .parameter(let name): "{\(name)}"
            }
        }
    }

    /// The template as written, e.g. `/appointments/{id}`.
    public let template: String
    /// URL names for Input fields: parameter or query name → field name.
    public let aliases: [String: String]
    /// The template's segments, in order.
    public let segments: [Segment]

    /// Declares a route. The template must start with `/` and have no empty segment.
    public init(_ template: String, aliases: [String: String] = [:]) {
        precondition(template.hasPrefix("/") && !template.dropFirst().isEmpty, "a route starts with / and names a path")
        let segments = Self.segments(of: template)
        precondition(segments != nil, "route \(template) has an empty segment")
        self.template = template
        self.aliases = aliases
        self.segments = segments ?? []
    }

    /// A route read from data a program did not declare (a daemon's `describe`): nil, rather
    /// than a crash, when `template` is not one ``init(_:aliases:)`` accepts.
    public init?(validating template: String, aliases: [String: String] = [:]) {
        guard template.hasPrefix("/"), !template.dropFirst().isEmpty, let segments = Self.segments(of: template) else {
            return nil
        }
        self.template = template
        self.aliases = aliases
        self.segments = segments
    }

    /// The segments of a template that starts with `/`; nil when one is empty.
    private static func segments(of template: String) -> [Segment]? {
        var segments: [Segment] = []
        for part in template.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard !part.isEmpty else { return nil }
            if part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2 {
                segments.append(.parameter(String(part.dropFirst().dropLast())))
            } else {
                segments.append(.literal(String(part)))
            }
        }
        return segments
    }

    /// The Input field a URL name stands for: its alias, or the name itself.
    public func field(named name: String) -> String {
        aliases[name] ?? name
    }

    /// How many literal segments the template has; a route with more wins a tie with one with fewer.
    public var literalCount: Int {
        segments.reduce(0) { count, segment in
            if case .literal = segment { count + 1 } else { count }
        }
    }

    public var description: String { template }
}
