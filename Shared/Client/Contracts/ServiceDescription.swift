import VerticalsContract
import VerticalsWire

/// Builds a `Daemon/Description` from operation descriptors and the field tables
/// (`MessageSchema`) of the messages they reach: the one place `daemon.describe`, the
/// contract lock file and `svc-supervisor describe` get their data from.
///
/// ```swift
/// let description = ServiceDescription.of(Clinics.self)
/// description.messages.first { $0.name == "shop.Item" }?.fields.map(\.name)
/// ```
public enum ServiceDescription {
    /// The description of `contract` (its own operations only, not the built-ins).
    public static func of(_ contract: any ServiceContract.Type) -> Daemon.Description {
        make(name: contract.name, summary: contract.summary, operations: contract.operations)
    }

    /// The description of a vertical named `name` that serves `operations`.
    public static func make(name: String, summary: String, operations: [OperationDescriptor]) -> Daemon.Description {
        var roots: [MessageSchema] = []
        let infos = operations.map { operation in
            roots += [operation.input.schema, operation.output.schema] + (operation.event.map { [$0.schema] } ?? [])
            return Daemon.OperationInfo(
                name: operation.name, summary: operation.summary, input: operation.input.schema.name,
                output: operation.output.schema.name, errors: operation.errors,
                service: operation.service, event: operation.event?.schema.name, route: operation.route.map(info),
                marks: operation.marks.map(\.rawValue))
        }
        let catalog = SchemaCatalog(reachableFrom: roots)
        return Daemon.Description(
            name: name, summary: summary, operations: infos, messages: catalog.messages.map(info),
            enums: catalog.enumerations.map(info))
    }

    /// The wire form of one message's schema: what `describe` says of it.
    public static func info(_ schema: MessageSchema) -> Daemon.MessageInfo {
        Daemon.MessageInfo(name: schema.name, doc: schema.doc, fields: schema.fields.map(info))
    }

    /// The wire form of a route, its aliases sorted by URL name (so the bytes do not depend on hashing).
    public static func info(_ route: Route) -> Daemon.RouteInfo {
        Daemon.RouteInfo(
            template: route.template,
            aliases: route.aliases.sorted { $0.key < $1.key }.map { Daemon.RouteAlias(name: $0.key, field: $0.value) })
    }

    /// The wire form of one enumeration's schema.
    public static func info(_ schema: EnumSchema) -> Daemon.EnumInfo {
        Daemon.EnumInfo(name: schema.name, cases: schema.cases)
    }

    /// One field's table entry.
    public static func info(_ field: FieldDescriptor) -> Daemon.FieldInfo {
        var presence = Daemon.FieldPresence.required
        var defaultText: String?
        switch field.presence {
        case .required: presence = .required
        case .optional: presence = .optional
        case .repeated: presence = .repeated
        case .defaulted(let value):
            presence = .defaulted
            defaultText = jsonText(of: value, type: field.type)
        }
        return Daemon.FieldInfo(
            tag: UInt64(field.tag), name: field.name, type: field.type.description, presence: presence,
            defaultValue: defaultText, doc: field.doc, maxBytes: field.maxBytes.map(UInt64.init), secret: field.secret)
    }

    /// A default value in its JSON form, printed by Wire's own JSON printer (through a
    /// one-field schema), so `describe` spells it exactly as `call` would read it.
    public static func jsonText(of value: DefaultValue, type: FieldType) -> String {
        let schema = MessageSchema("default", [.required(1, "value", type)])
        let message: MessageValue = [1: WireValue(value)]
        guard case .object(let members)? = try? message.json(as: schema), let first = members.first else {
            return value.description
        }
        return first.value.serialized()
    }
}
