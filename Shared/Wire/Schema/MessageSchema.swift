/// The field table of one message type: the single source for its JSON form,
/// `describe`, the contract lock file and the generic codec.
///
/// ```swift
/// public static let schema = MessageSchema("identity.LoginInput", [
///     .required(1, "email", .string),
///     .required(2, "password", .string),
/// ])
/// ```
public struct MessageSchema: Sendable, Equatable, CustomStringConvertible {
    /// The message's qualified name, `<service>.<Type>`.
    public let name: String
    /// The fields, in tag order of declaration.
    public let fields: [FieldDescriptor]
    /// One line for `describe`.
    public let doc: String

    /// Creates a schema; tags and names must be unique.
    public init(_ name: String, _ fields: [FieldDescriptor], doc: String = "") {
        precondition(Set(fields.map(\.tag)).count == fields.count, "\(name): duplicate field tag")
        precondition(Set(fields.map(\.name)).count == fields.count, "\(name): duplicate field name")
        self.name = name
        self.fields = fields
        self.doc = doc
    }

    /// The field with `tag`, if the schema declares it.
    public func field(tag: UInt32) -> FieldDescriptor? {
        fields.first { $0.tag == tag }
    }

    /// The field named `name`, if the schema declares it.
    public func field(named name: String) -> FieldDescriptor? {
        fields.first { $0.name == name }
    }

    public var description: String { name }
}
