/// The message a ``FieldType/message(_:)-swift.enum.case`` field holds: its schema, found
/// lazily.
///
/// Three sources, one behaviour: a compiled ``WireMessage`` type (its static `schema`, read on
/// first use, so that `Node` may hold `Node`s and a contract may name a type declared further
/// down), a name bound by a ``SchemaCatalog`` (a schema rebuilt from `describe`), or a bare name
/// not yet in a catalog. References compare by name: a schema names each message once.
public struct MessageReference: Sendable, Equatable, CustomStringConvertible {
    // Three optionals rather than an enum with a payload per source: a class reference in a
    // multi-payload enum may carry the case in its spare bits, and LeakSanitizer (the fuzzers)
    // then cannot see that a catalog's table is still reachable and reports it as leaked.
    /// A compiled message type's static schema, or nil for a reference by name.
    private let compiled: (@Sendable () -> MessageSchema)?
    /// The name, for a reference by name (bound or not).
    private let boundName: String?
    /// The catalog that binds the name, or nil while unbound.
    private let table: SchemaCatalog.Table?

    /// A reference to the schema of a compiled message type.
    public init(_ type: any WireMessage.Type) {
        compiled = { type.schema }
        boundName = nil
        table = nil
    }

    /// A reference by name, bound when its schema is put in a ``SchemaCatalog``.
    public init(named name: String) {
        compiled = nil
        boundName = name
        table = nil
    }

    init(_ name: String, in table: SchemaCatalog.Table) {
        compiled = nil
        boundName = name
        self.table = table
    }

    /// The qualified name of the message, e.g. `clinics.Clinic`.
    public var name: String {
        if let compiled { compiled().name } else { boundName ?? "" }
    }

    /// The message's schema.
    ///
    /// A reference by name that no ``SchemaCatalog`` has bound has none: reading it is a
    /// programming error (build schemas by name through a catalog, which checks every name).
    public var schema: MessageSchema {
        if let compiled { return compiled() }
        guard let table, let boundName else {
            preconditionFailure("message \(name) is referred to by name outside a SchemaCatalog")
        }
        return table.schema(named: boundName)
    }

    /// Whether this reference names a message without a catalog to find it in.
    var isUnbound: Bool { compiled == nil && table == nil }

    public static func == (lhs: MessageReference, rhs: MessageReference) -> Bool {
        lhs.name == rhs.name
    }

    public var description: String { name }
}
