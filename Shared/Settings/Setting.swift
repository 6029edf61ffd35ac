/// One environment variable a program reads, declared once: its name, the type and range of
/// its values, its default and a one-line doc. The module that owns it declares it in its
/// settings file (``SettingsDeclaration``), and every reader reads it through that declaration,
/// so `--check`, the ENVIRONMENT reference and the reader cannot disagree.
///
/// ```swift
/// public static let maxInFlight = Setting.integer(
///     "VERTICALS_MAX_IN_FLIGHT", default: 1024, in: 1...1_000_000,
///     doc: "Requests one connection may have in flight at once.")
/// let limit = try maxInFlight.value(in: environment)   // 1024 when unset; SettingError when out of range
/// ```
///
/// Not apple/swift-configuration: its `Configuration` module imports Foundation (and with it ICU)
/// into every program that reads a setting, the lean `svc-supervisor` and every daemon included,
/// which costs each of them start-up time and memory; these declarations need only the standard
/// library.
public struct Setting<Value: Sendable>: Sendable, AnySetting {
    /// The variable's name.
    public let name: String
    /// What its values are, in words ("integer", "seconds", "one of", "list", "text").
    public let type: String
    /// The value when the variable is unset or empty; nil when unset means "not set" (a feature off,
    /// or a value the program derives).
    public let defaultValue: Value?
    /// The default as the reference shows it.
    public let defaultText: String
    /// The values allowed, in words ("1...1000000", "on, off, off-insecure").
    public let allowed: String
    /// One line: what the setting changes.
    public let doc: String
    /// The value of `text`, or nil when it is not allowed.
    let parse: @Sendable (String) -> Value?

    /// Declares a setting whose values `parse` reads (nil: not allowed, as `allowed` says).
    public init(
        _ name: String, type: String, default defaultValue: Value?, defaultText: String, allowed: String, doc: String,
        parse: @escaping @Sendable (String) -> Value?
    ) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.defaultText = defaultText
        self.allowed = allowed
        self.doc = doc
        self.parse = parse
    }

    /// The variable's value in `environment`: ``defaultValue`` when it is unset or empty.
    ///
    /// - Throws: ``SettingError`` naming the variable, its value and what is allowed when the
    ///   value does not parse or is out of range.
    public func value(in environment: [String: String]) throws(SettingError) -> Value? {
        guard let text = environment[name], !text.isEmpty else { return defaultValue }
        guard let value = parse(text) else { throw SettingError(variable: name, value: text, allowed: allowed) }
        return value
    }

    /// The variable's value in `environment` when it is set and allowed; nil when it is unset,
    /// empty or not allowed (the reader keeps its default, as a limit does; `--check` names it).
    public func validValue(in environment: [String: String]) -> Value? {
        environment[name].flatMap { $0.isEmpty ? nil : parse($0) }
    }

    /// The setting as the reference and `--check` see it, whatever its type.
    public var entry: SettingEntry {
        let parse = self.parse
        return SettingEntry(
            name: name, type: type, defaultText: defaultText, allowed: allowed, doc: doc, accepts: { parse($0) != nil })
    }
}

/// A declared setting of any value type: what a ``SettingsDeclaration`` lists.
public protocol AnySetting: Sendable {
    /// The setting's name, type, default, range and doc, and its check.
    var entry: SettingEntry { get }
}

/// A setting without its value type: a row of the ENVIRONMENT reference, and a check for `--check`.
public struct SettingEntry: Sendable {
    /// The variable's name.
    public let name: String
    /// What its values are, in words.
    public let type: String
    /// The default as the reference shows it.
    public let defaultText: String
    /// The values allowed, in words.
    public let allowed: String
    /// One line: what the setting changes.
    public let doc: String
    /// Whether a set, non-empty value is allowed.
    let accepts: @Sendable (String) -> Bool

    /// What is wrong with the variable in `environment`, or nil when it is unset, empty or allowed.
    public func problem(in environment: [String: String]) -> SettingError? {
        guard let text = environment[name], !text.isEmpty, !accepts(text) else { return nil }
        return SettingError(variable: name, value: text, allowed: allowed)
    }
}
