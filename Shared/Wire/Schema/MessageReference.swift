/// The message a ``FieldType/message(_:)-swift.enum.case`` field holds: its schema, found
/// lazily.
///
/// Three sources, one behaviour: a compiled ``WireMessage`` type (its static `schema`, read on
/// first use, so that `Node` may hold `Node`s and a contract may name a type declared further
/// down), a name bound by a ``SchemaCatalog`` (a schema rebuilt from `describe`), or a bare name
/// not yet in a catalog. References compare by name: a schema names each message once.
public struct MessageReference: Sendable, Equatable, CustomStringConvertible {
    enum Source: Sendable {
        /// A compiled message type; the closure reads its static schema.
        case compiled(@Sendable () -> MessageSchema)
        /// A message of a catalog, looked up by name there.
        case catalog(String, SchemaCatalog.Table)
        /// A name no catalog has bound yet.
        case unbound(String)
    }

    let source: Source

    /// A reference to the schema of a compiled message type.
    public init(_ type: any WireMessage.Type) {
        source = .compiled { type.schema }
    }

    /// A reference by name, bound when its schema is put in a ``SchemaCatalog``.
    public init(named name: String) {
        source = .unbound(name)
    }

    init(_ name: String, in table: SchemaCatalog.Table) {
        source = .catalog(name, table)
    }

    /// The qualified name of the message, e.g. `clinics.Clinic`.
    public var name: String {
        switch source {
        case .compiled(let schema): schema().name
        case .catalog(let name, _), .unbound(let name): name
        }
    }

    /// The message's schema.
    ///
    /// A reference by name that no ``SchemaCatalog`` has bound has none: reading it is a
    /// programming error (build schemas by name through a catalog, which checks every name).
    public var schema: MessageSchema {
        switch source {
        case .compiled(let schema): return schema()
        case .catalog(let name, let table): return table.schema(named: name)
        case .unbound(let name):
            preconditionFailure("message \(name) is referred to by name outside a SchemaCatalog")
        }
    }

    /// Whether this reference names a message without a catalog to find it in.
    var isUnbound: Bool {
        if case .unbound = source { true } else { false }
    }

    public static func == (lhs: MessageReference, rhs: MessageReference) -> Bool {
        lhs.name == rhs.name
    }

    public var description: String { name }
}
