/// An enumeration carried on the wire by the name of its case, so that it can evolve.
///
/// A reader that meets a case it does not know keeps it as `unknown(raw)` instead of
/// failing, and writes it back unchanged. Conformers list their known cases once;
/// ``init(wireName:)`` is derived from that list.
///
/// ```swift
/// public enum Weekday: WireEnum {
///     case monday, tuesday, unknown(String)
///     public static let knownCases: [Weekday] = [.monday, .tuesday]
///     public static let schema = EnumSchema("Weekday", knownCases)
///     public init(unknown raw: String) { self = .unknown(raw) }
///     public var wireName: String {
///         switch self { case .monday: "monday"; case .tuesday: "tuesday"; case .unknown(let raw): raw }
///     }
/// }
/// ```
public protocol WireEnum: WireField, Hashable, CustomStringConvertible {
    /// Every case this build knows, in declaration order (never `unknown`).
    static var knownCases: [Self] { get }
    /// The enumeration's name and cases, for `describe`, the lock file and JSON validation.
    static var schema: EnumSchema { get }
    /// The value for a name no known case carries.
    init(unknown raw: String)
    /// The name this case travels under.
    var wireName: String { get }
    /// The known case whose name is exactly `utf8`, byte for byte, or nil: how a decoder finds a
    /// case without making a String. The default walks ``knownCases``; the contract generator
    /// emits one that picks by length, then compares bytes.
    static func knownCase(named utf8: UnsafeBufferPointer<UInt8>) -> Self?
}

extension WireEnum {
    /// The case named `wireName`, or `unknown(wireName)`.
    @inlinable
    public init(wireName: String) {
        for known in Self.knownCases where known.wireName == wireName {
            self = known
            return
        }
        self.init(unknown: wireName)
    }

    /// Whether `utf8` holds exactly the bytes of `name`: what a generated
    /// ``knownCase(named:)`` compares once the length matched.
    @inlinable
    public static func bytes(_ utf8: UnsafeBufferPointer<UInt8>, spell name: StaticString) -> Bool {
        name.withUTF8Buffer { name in
            guard name.count == utf8.count else { return false }
            for index in 0..<name.count where name[index] != utf8[index] { return false }
            return true
        }
    }

    /// Whether this is one of ``knownCases``.
    public var isKnown: Bool { Self.knownCases.contains(self) }

    public var description: String { wireName }
}

/// The name and known cases of a ``WireEnum``: data for `describe` and the lock file.
public struct EnumSchema: Sendable, Equatable {
    /// The enumeration's qualified name, e.g. `shop.Category`.
    public let name: String
    /// The known case names, in declaration order.
    public let cases: [String]

    /// Describes an enumeration from its known cases.
    public init<E: WireEnum>(_ name: String, _ knownCases: [E]) {
        self.name = name
        self.cases = knownCases.map(\.wireName)
    }

    /// Describes an enumeration from case names.
    public init(_ name: String, cases: [String]) {
        self.name = name
        self.cases = cases
    }
}
