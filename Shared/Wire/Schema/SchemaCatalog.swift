/// A set of message and enumeration schemas, each under its own name: what `describe` says
/// a vertical's messages are, as the same ``MessageSchema`` values a contract declares.
///
/// Built either by walking compiled schemas (``init(reachableFrom:)``: what `describe` and the
/// lock file list) or from schemas whose nested messages are named (``init(messages:enumerations:)``:
/// what a client rebuilds from `describe`'s answer without having linked the vertical's types).
/// Either way, the generic codec (``MessageValue``: binary, JSON, validation) reads its schemas
/// exactly as it reads compiled ones.
///
/// ```swift
/// let catalog = try SchemaCatalog(messages: [
///     MessageSchema("test.Node", [.repeated(1, "children", .message(named: "test.Node"))]),
/// ], enumerations: [])
/// let node = try MessageValue(decoding: body, as: catalog.message(named: "test.Node")!)
/// ```
public struct SchemaCatalog: Sendable, Equatable {
    /// Every message, in the order given or first met, with its nested messages findable.
    public var messages: [MessageSchema] { table.order.map { table.schema(named: $0) } }
    /// Every enumeration, in the order given or first met.
    public let enumerations: [EnumSchema]
    let table: Table

    /// The messages reachable from `roots` (each root, then the messages its fields hold,
    /// depth first, each once) and the enumerations their fields use, in the order first met.
    public init(reachableFrom roots: [MessageSchema]) {
        var walk = Walk()
        for root in roots { walk.visit(root) }
        table = Table(walk.messages)
        enumerations = walk.enumerations
    }

    /// A catalog of `messages` and `enumerations` as given; a nested message named with
    /// ``FieldType/message(named:)`` is found here.
    ///
    /// Throws when two messages or two enumerations share a name, or a field names a message
    /// or an enumeration the catalog lacks.
    public init(messages: [MessageSchema], enumerations: [EnumSchema]) throws(SchemaCatalogError) {
        var byName: [String: MessageSchema] = [:]
        for message in messages {
            guard byName.updateValue(message, forKey: message.name) == nil else {
                throw SchemaCatalogError(.duplicate, "message \(message.name) is declared more than once")
            }
        }
        var enumNames: Set<String> = []
        for enumeration in enumerations where !enumNames.insert(enumeration.name).inserted {
            throw SchemaCatalogError(.duplicate, "enumeration \(enumeration.name) is declared more than once")
        }
        for message in messages {
            for field in message.fields {
                switch field.type {
                case .message(let reference) where reference.isUnbound && byName[reference.name] == nil:
                    throw SchemaCatalogError(
                        .notListed,
                        "\(message.name).\(field.name) holds message \(reference.name), which is not in the catalog")
                case .enumeration(let enumeration) where !enumNames.contains(enumeration.name):
                    throw SchemaCatalogError(
                        .notListed,
                        "\(message.name).\(field.name) holds enumeration \(enumeration.name), which is not in the catalog"
                    )
                default:
                    continue
                }
            }
        }
        table = Table(messages)
        self.enumerations = enumerations
    }

    /// The message called `name`, if the catalog has it.
    public func message(named name: String) -> MessageSchema? {
        table.byName[name] == nil ? nil : table.schema(named: name)
    }

    /// The enumeration called `name`, if the catalog has it.
    public func enumeration(named name: String) -> EnumSchema? {
        enumerations.first { $0.name == name }
    }

    public static func == (lhs: SchemaCatalog, rhs: SchemaCatalog) -> Bool {
        lhs.messages == rhs.messages && lhs.enumerations == rhs.enumerations
    }
}

extension SchemaCatalog {
    /// The catalog's messages as given, nested messages still by name.
    ///
    /// A by-name reference holds the table strongly and the table holds only the schemas as
    /// given (never a bound reference), so a recursive message makes no reference cycle: each
    /// lookup binds the references of the one schema it returns, which costs an array of its
    /// fields. Compiled schemas (``init(reachableFrom:)``) have nothing to bind.
    final class Table: Sendable {
        let order: [String]
        let byName: [String: MessageSchema]

        init(_ messages: [MessageSchema]) {
            order = messages.map(\.name)
            byName = Dictionary(messages.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }

        /// The message called `name`, its by-name references bound to this table.
        func schema(named name: String) -> MessageSchema {
            guard let schema = byName[name] else {
                preconditionFailure("message \(name) is not in its catalog") // names are checked when built
            }
            guard schema.fields.contains(where: { if case .message(let r) = $0.type { r.isUnbound } else { false } })
            else { return schema }
            let fields = schema.fields.map { field -> FieldDescriptor in
                guard case .message(let reference) = field.type, reference.isUnbound else { return field }
                return FieldDescriptor(
                    tag: field.tag, name: field.name, type: .message(MessageReference(reference.name, in: self)),
                    presence: field.presence, doc: field.doc, secret: field.secret)
            }
            return MessageSchema(checked: schema, fields: fields)
        }
    }

    /// Collects the messages and enumerations reachable from some schemas, each once.
    struct Walk {
        var messages: [MessageSchema] = []
        var enumerations: [EnumSchema] = []
        private var seenMessages: Set<String> = []
        private var seenEnumerations: Set<String> = []

        mutating func visit(_ schema: MessageSchema) {
            guard seenMessages.insert(schema.name).inserted else { return }
            messages.append(schema)
            for field in schema.fields {
                switch field.type {
                case .message(let reference): visit(reference.schema)
                case .enumeration(let enumeration):
                    if seenEnumerations.insert(enumeration.name).inserted { enumerations.append(enumeration) }
                default: break
                }
            }
        }
    }
}

/// Why a set of schemas does not make a ``SchemaCatalog``: a name given twice, or one no
/// schema carries.
///
/// Its ``code`` says which (`duplicate`, `notListed`, `unsupported`, `invalid`, `refused`); its
/// ``message`` is the ``reason``, naming the message and field.
public struct SchemaCatalogError: StoredCodedError {
    /// What is wrong with the schemas.
    public typealias Code = ErrorKind<SchemaCatalogError>

    /// What is wrong with the schemas, and the message (the ``reason``).
    public let storage: CodedErrorStorage<SchemaCatalogError>

    /// The error `storage` describes.
    public init(storage: CodedErrorStorage<SchemaCatalogError>) { self.storage = storage }

    /// An error saying `reason`, of the code `invalid`.
    @available(*, deprecated, message: "name the code: init(_:_:)")
    public init(_ reason: String) {
        self.init(.invalid, reason)
    }

    /// What is wrong, naming the message and field: the ``message``.
    public var reason: String { message }
}

extension ErrorKind where Domain == SchemaCatalogError {
    /// A message, an enumeration, a field's name or tag, or a route's alias is given twice.
    public static var duplicate: Self { Self("duplicate") }
    /// A field or an operation names a message or an enumeration the schemas do not list.
    public static var notListed: Self { Self("notListed") }
    /// A type or a presence is not one this build knows (a newer build's, or none).
    public static var unsupported: Self { Self("unsupported") }
    /// A value breaks its rule: a tag out of range, a bound or a default that does not fit its
    /// field, a route that is not a path.
    public static var invalid: Self { Self("invalid") }
    /// A description as a whole is refused: over its bounds, or speaking for another vertical.
    public static var refused: Self { Self("refused") }
}
