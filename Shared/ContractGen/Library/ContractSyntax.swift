/// A `.vcontract` file as parsed: the contract's name and its messages and enumerations,
/// in the order written. Pure data: ``ContractParser`` makes it, ``ContractChecker`` checks it
/// against every other contract of the target, ``SwiftEmitter`` turns it into Swift.
public struct ContractFile: Sendable, Equatable {
    /// The file's path as given to the generator (diagnostics name it).
    public var path: String
    /// The contract's wire name, e.g. `clinics`: the prefix of every message's schema name.
    public var name: String
    /// Where `contract NAME` is written.
    public var location: SourceLocation
    /// The messages and enumerations, in the order written.
    public var declarations: [Declaration]

    /// The Swift namespace the generated types are nested in: the name with its first letter
    /// upper-cased (`clinics` → `Clinics`), the hand-written `enum Clinics: ServiceContract`.
    public var swiftNamespace: String { name.prefix(1).uppercased() + name.dropFirst() }
}

/// A position in a contract file: 1-based line and column (in bytes, as SwiftPM counts them).
public struct SourceLocation: Sendable, Equatable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1.
    public var column: Int

    /// Creates a location.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// One top-level declaration of a contract: a message or an enumeration.
public enum Declaration: Sendable, Equatable {
    case message(MessageDeclaration)
    case enumeration(EnumDeclaration)

    /// The declared name, e.g. `CreateInput`.
    public var name: String {
        switch self {
        case .message(let message): message.name
        case .enumeration(let enumeration): enumeration.name
        }
    }

    /// Where the name is written.
    public var location: SourceLocation {
        switch self {
        case .message(let message): message.location
        case .enumeration(let enumeration): enumeration.location
        }
    }
}

/// `message NAME [: Conformance, …] { fields }` with its doc comment; or `input NAME …`, the
/// same message whose string, bytes and enumeration fields get ``ContractChecker/defaultMaxBytes``
/// unless they declare a bound.
public struct MessageDeclaration: Sendable, Equatable {
    /// The message's name, unqualified.
    public var name: String
    /// Whether it is declared `input`: an operation's Input, or a message one holds.
    public var isInput: Bool = false
    /// The `///` lines above it, without the slashes.
    public var doc: [String]
    /// Conformances added to the generated struct beyond `WireMessage` (e.g. `Hashable`), which
    /// Swift can synthesize only in the type's own declaration.
    public var conformances: [String]
    /// The fields, in the order written: the order of the properties, the init's parameters,
    /// the schema and the encoder.
    public var fields: [FieldDeclaration]
    /// Where the name is written.
    public var location: SourceLocation
}

/// One field: `TAG NAME: TYPE`, `TAG NAME: TYPE?`, `TAG NAME: [TYPE]` or `TAG NAME: TYPE = VALUE`,
/// where a string or bytes TYPE may carry its bound: `string(maxBytes: 1024)`; `secret` may end
/// any of them (`2 password: string(maxBytes: 1024) secret`).
public struct FieldDeclaration: Sendable, Equatable {
    /// The field's number on the wire, 1...2^29-1.
    public var tag: UInt64
    /// The field's name: the Swift property and the JSON key.
    public var name: String
    /// The element type.
    public var type: TypeReference
    /// The bound written after the type (`string(maxBytes: 1024)`), in bytes; nil when none is.
    public var maxBytes: UInt64? = nil
    /// Where the bound's number is written.
    public var maxBytesLocation: SourceLocation? = nil
    /// Required, optional, repeated or defaulted.
    public var presence: FieldPresence
    /// The `///` lines above it, without the slashes.
    public var doc: [String]
    /// Where the tag is written.
    public var location: SourceLocation
    /// Whether `secret` ends the line: a value not to echo or keep (`FieldDescriptor.secret`).
    public var secret: Bool = false
}

/// What a reader does when a field is absent (`FieldDescriptor.Presence` in Wire).
public enum FieldPresence: Sendable, Equatable {
    /// `NAME: TYPE`: absence is an error.
    case required
    /// `NAME: TYPE?`: absent means `nil`.
    case optional
    /// `NAME: [TYPE]`: zero or more, absent means empty.
    case repeated
    /// `NAME: TYPE = VALUE`: absent means VALUE.
    case defaulted(Literal)
}

/// A default value as written.
public enum Literal: Sendable, Equatable {
    /// `20`, `-1`.
    case integer(String, SourceLocation)
    /// `1.5`, `-0.25`, `2e3`.
    case float(String, SourceLocation)
    /// `"text"`, unescaped.
    case string(String, SourceLocation)
    /// `true`, `false`, or an enumeration case name.
    case identifier(String, SourceLocation)

    /// Where the literal is written.
    public var location: SourceLocation {
        switch self {
        case .integer(_, let at), .float(_, let at), .string(_, let at), .identifier(_, let at): at
        }
    }
}

/// A field's type as written: a scalar (`string`), a local type (`Service`) or another
/// contract's (`shop.Category`).
public struct TypeReference: Sendable, Equatable, CustomStringConvertible {
    /// The other contract's name, when qualified.
    public var contract: String?
    /// The type's name.
    public var name: String
    /// Where the type is written.
    public var location: SourceLocation

    public var description: String { contract.map { "\($0).\(name)" } ?? name }
}

/// `enum NAME { cases }` with its doc comment. Every enumeration also has `unknown(String)`,
/// which keeps a case this build does not know (Wire's `WireEnum`).
public struct EnumDeclaration: Sendable, Equatable {
    /// The enumeration's name, unqualified.
    public var name: String
    /// The `///` lines above it, without the slashes.
    public var doc: [String]
    /// The known cases, in the order written (which is their order in `describe`).
    public var cases: [EnumCase]
    /// Where the name is written.
    public var location: SourceLocation
}

/// One known case of an enumeration: its name on the wire and in Swift.
public struct EnumCase: Sendable, Equatable {
    /// The case's name.
    public var name: String
    /// The `///` lines above it, without the slashes.
    public var doc: [String]
    /// Where the name is written.
    public var location: SourceLocation
}
