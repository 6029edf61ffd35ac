/// A YAML value as the Kubernetes export builds it: the fixed object model of manifests, not
/// general YAML (no anchors, tags or multi-line blocks), so that a small emitter writes it
/// correctly and the tests read the same tree back without a parser.
///
/// ```swift
/// let service: YAMLNode = .map([("apiVersion", "v1"), ("kind", "Service")])
/// service["kind"]?.string  // "Service"
/// ```
public indirect enum YAMLNode: Sendable, Equatable {
    /// A string, always written so that it reads back as the same string (quoted when it could
    /// be taken for a number, a boolean, null or YAML syntax).
    case string(String)
    /// An integer.
    case int(Int)
    /// A boolean.
    case bool(Bool)
    /// A mapping, its keys in the order given (so an export is byte-for-byte stable).
    case map([(String, YAMLNode)])
    /// A sequence.
    case list([YAMLNode])

    /// The value at `key` of a mapping; nil for a missing key or a value of another kind.
    public subscript(key: String) -> YAMLNode? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    /// The value at `path` of nested mappings: `node[path: "spec", "template", "metadata"]`.
    public subscript(path keys: String...) -> YAMLNode? {
        var node: YAMLNode? = self
        for key in keys { node = node?[key] }
        return node
    }

    /// The string, when this is one.
    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The integer, when this is one.
    public var int: Int? {
        if case .int(let value) = self { return value }
        return nil
    }

    /// The boolean, when this is one.
    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when this is a sequence; empty otherwise.
    public var elements: [YAMLNode] {
        if case .list(let items) = self { return items }
        return []
    }

    /// The keys of a mapping, in order; empty otherwise.
    public var keys: [String] {
        if case .map(let pairs) = self { return pairs.map(\.0) }
        return []
    }

    /// A mapping of strings to strings (labels, selectors, ConfigMap data), sorted by key.
    public static func strings(_ values: [String: String]) -> YAMLNode {
        .map(values.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
    }

    /// The string values of a mapping of strings (labels, selectors); nil when this is not one.
    public var stringMap: [String: String]? {
        guard case .map(let pairs) = self else { return nil }
        var values: [String: String] = [:]
        for (key, value) in pairs {
            guard let text = value.string else { return nil }
            values[key] = text
        }
        return values
    }

    public static func == (lhs: YAMLNode, rhs: YAMLNode) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.list(let a), .list(let b)): a == b
        case (.map(let a), .map(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }
}

extension YAMLNode: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}
