/// The message a ``FieldType/message(_:)-swift.enum.case`` field holds: its schema, found
/// lazily.
///
/// Three sources, one behaviour: a compiled ``WireMessage`` type (its static `schema`, read on
/// first use, so that `Node` may hold `Node`s and a contract may name a type declared further
/// down), a name bound by a ``SchemaCatalog`` (a schema rebuilt from `describe`), or a bare name
/// not yet in a catalog. References compare by name: a schema names each message once.
public struct MessageReference: Sendable, Equatable, CustomStringConvertible {
    /// Where the schema comes from, behind one pointer: a field's type is copied often by the
    /// generic codec, and one retain is all a copy then costs (measured with callgrind: three
    /// inline optionals made the generic decoder 13% slower than the metatype it replaced).
    /// Plain optionals inside, not an enum with a class payload: a class reference in a
    /// multi-payload enum may carry the case in its spare bits, and LeakSanitizer (the fuzzers)
    /// then cannot see that a catalog's table is still reachable and reports it as leaked.
    fileprivate final class Source: Sendable {
        /// A compiled message type, or nil for a reference by name.
        let compiled: (any WireMessage.Type)?
        /// The name, for a reference by name (bound or not).
        let name: String?
        /// The catalog that binds the name, or nil while unbound.
        let table: SchemaCatalog.Table?
        /// A catalog's schema already looked up and bound, for the elements of one list.
        let resolved: MessageSchema?

        init(
            compiled: (any WireMessage.Type)?, name: String?, table: SchemaCatalog.Table?,
            resolved: MessageSchema? = nil
        ) {
            self.compiled = compiled
            self.name = name
            self.table = table
            self.resolved = resolved
        }
    }

    fileprivate let source: Source

    /// A reference to the schema of a compiled message type.
    public init(_ type: any WireMessage.Type) {
        source = Source(compiled: type, name: nil, table: nil)
    }

    /// A reference by name, bound when its schema is put in a ``SchemaCatalog``.
    public init(named name: String) {
        source = Source(compiled: nil, name: name, table: nil)
    }

    /// A reference to a catalog's schema already looked up and bound (see
    /// ``FieldType/resolvedForElements``).
    init(resolved schema: MessageSchema, in table: SchemaCatalog.Table) {
        source = Source(compiled: nil, name: schema.name, table: table, resolved: schema)
    }

    init(_ name: String, in table: SchemaCatalog.Table) {
        source = Source(compiled: nil, name: name, table: table)
    }

    /// The qualified name of the message, e.g. `shop.Item`.
    public var name: String {
        if let compiled = source.compiled { compiled.schema.name } else { source.name ?? "" }
    }

    /// The message's schema.
    ///
    /// A reference by name that no ``SchemaCatalog`` has bound has none: reading it is a
    /// programming error (build schemas by name through a catalog, which checks every name).
    public var schema: MessageSchema {
        if let compiled = source.compiled { return compiled.schema }
        if let resolved = source.resolved { return resolved }
        guard let table = source.table, let boundName = source.name else {
            preconditionFailure("message \(name) is referred to by name outside a SchemaCatalog")
        }
        return table.schema(named: boundName)
    }

    /// Whether this reference names a message without a catalog to find it in.
    var isUnbound: Bool { source.compiled == nil && source.table == nil }

    public static func == (lhs: MessageReference, rhs: MessageReference) -> Bool {
        lhs.name == rhs.name
    }

    public var description: String { name }
}

extension FieldType {
    /// This type, with a catalog's message looked up once: for a loop over the elements of one
    /// repeated field, so that a list of 100 messages binds its schema once, not 100 times.
    /// A compiled reference is returned as it is (reading its schema is already cheap).
    var resolvedForElements: FieldType {
        guard case .message(let reference) = self, let table = reference.source.table, reference.source.resolved == nil
        else { return self }
        return .message(MessageReference(resolved: reference.schema, in: table))
    }
}
