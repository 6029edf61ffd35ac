/// The kinds of setting the programs read: a whole number in a range, a number of a unit above a
/// bound, one of a few words, and free text (a path, an address, a comma-separated list).
extension Setting where Value == Int {
    /// A whole number within `range`; unset, `defaultValue` (shown as `defaultText` when that is given).
    public static func integer(
        _ name: String, default defaultValue: Int?, defaultText: String? = nil, in range: ClosedRange<Int>,
        unit: String = "integer", doc: String
    ) -> Setting<Int> {
        Setting(
            name, type: unit, default: defaultValue,
            defaultText: defaultText ?? defaultValue.map { "\($0)" } ?? "unset",
            allowed: range.upperBound == Int.max
                ? "≥ \(range.lowerBound)" : "\(range.lowerBound)...\(range.upperBound)", doc: doc
        ) { text in Int(text).flatMap { range.contains($0) ? $0 : nil } }
    }
}

extension Setting where Value == Double {
    /// A finite number of `unit` greater than `above` (or at least `atLeast`) and at most `atMost`.
    public static func number(
        _ name: String, unit: String, default defaultValue: Double?, defaultText: String? = nil, above: Double? = nil,
        atLeast: Double? = nil, atMost: Double? = nil, doc: String
    ) -> Setting<Double> {
        let lower = above.map { "> \(Self.plain($0))" } ?? atLeast.map { "≥ \(Self.plain($0))" } ?? ""
        return Setting(
            name, type: unit, default: defaultValue,
            defaultText: defaultText ?? defaultValue.map(Self.plain) ?? "unset",
            allowed: [lower, atMost.map { "≤ \(Self.plain($0))" } ?? ""].filter { !$0.isEmpty }.joined(separator: ", "),
            doc: doc
        ) { text in
            guard let value = Double(text), value.isFinite, value <= atMost ?? .infinity else { return nil }
            if let above, value <= above { return nil }
            if let atLeast, value < atLeast { return nil }
            return value
        }
    }

    /// `value` without a fraction when it has none: `10`, not `10.0`.
    static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int64(value))" : "\(value)"
    }
}

extension Setting where Value == String {
    /// One of `values` (compared ignoring case when `ignoringCase`); the value read is the one written.
    public static func choice(
        _ name: String, among values: [String], default defaultValue: String?, defaultText: String? = nil,
        ignoringCase: Bool = false, doc: String
    ) -> Setting<String> {
        let allowed = ignoringCase ? Set(values.map { $0.lowercased() }) : Set(values)
        return Setting(
            name, type: "one of", default: defaultValue, defaultText: defaultText ?? defaultValue ?? "unset",
            allowed: values.joined(separator: ", "), doc: doc
        ) { text in allowed.contains(ignoringCase ? text.lowercased() : text) ? text : nil }
    }

    /// Any text: a path, an address, a URL, a comma-separated list (`type` says which).
    public static func text(
        _ name: String, type: String = "text", default defaultValue: String?, defaultText: String? = nil,
        allowed: String = "any", doc: String
    ) -> Setting<String> {
        Setting(
            name, type: type, default: defaultValue, defaultText: defaultText ?? defaultValue ?? "unset",
            allowed: allowed,
            doc: doc
        ) { $0 }
    }
}
