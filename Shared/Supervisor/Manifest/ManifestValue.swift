import TOMLKit

/// A parsed TOML value, copied out of TOMLKit's tree so the parser can merge `[defaults]`
/// into each service and read values without touching TOMLKit's pointers again.
///
/// Tables keep TOMLKit's key order, which is sorted (toml++ stores a table as a map): file
/// order comes from ``TableHeaders`` instead.
enum ManifestValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    case array([ManifestValue])
    case table([String: ManifestValue])
    /// A date, time or date-time: valid TOML, never valid in a manifest.
    case other(String)

    /// Copies `value` and everything below it.
    init(_ value: any TOMLValueConvertible) {
        switch value.type {
        case .string: self = .string(value.string ?? "")
        case .int: self = .integer(value.int ?? 0)
        case .double: self = .float(value.double ?? 0)
        case .bool: self = .boolean(value.bool ?? false)
        case .array: self = .array((value.array.map { Array($0) } ?? []).map { ManifestValue($0) })
        case .table: self = .table(ManifestValue.entries(of: value.table ?? TOMLTable()))
        case .date, .time, .dateTime: self = .other(value.type.description)
        }
    }

    /// The entries of `table`, copied.
    static func entries(of table: TOMLTable) -> [String: ManifestValue] {
        var entries: [String: ManifestValue] = [:]
        for (key, value) in table { entries[key] = ManifestValue(value) }
        return entries
    }

    /// What a person calls this kind of value, for messages: "a string", "an integer".
    var kind: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a number"
        case .boolean: "a boolean"
        case .array: "an array"
        case .table: "a table"
        case .other(let type): "a \(type)"
        }
    }

    /// `defaults` under `self`: keys of `self` win; tables listed in `deep` merge key by key.
    static func merge(
        defaults: [String: ManifestValue], over service: [String: ManifestValue], deep: Set<String>
    ) -> [String: ManifestValue] {
        var merged = defaults
        for (key, value) in service {
            if deep.contains(key), case .table(let own) = value, case .table(let inherited)? = defaults[key] {
                merged[key] = .table(inherited.merging(own) { _, own in own })
            } else {
                merged[key] = value
            }
        }
        return merged
    }
}
