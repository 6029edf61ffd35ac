import VerticalsContract
import VerticalsWire

extension ServiceDescription {
    /// The schemas `description` carries, rebuilt as the same `MessageSchema`s and
    /// `EnumSchema`s a contract declares: the inverse of ``info(_:)-(MessageSchema)``.
    ///
    /// A client that never linked a vertical's types validates, encodes, decodes and prints
    /// its messages with `MessageValue` over this catalog, exactly as over compiled schemas.
    /// A description made from a contract rebuilds to schemas equal to the contract's, docs and
    /// defaults included (`ServiceDescriptionRoundTripTests`).
    ///
    /// ```swift
    /// let catalog = try ServiceDescription.catalog(of: description)
    /// let input = try MessageValue(json: text, as: catalog.message(named: "clinics.SearchInput")!)
    /// ```
    ///
    /// Throws, naming the message and field, when the description is not one a build of this
    /// framework could have made: an unknown type or presence, a tag out of range, a name or a
    /// tag given twice, a bound on a field that cannot have one, a default that is not of its field's type, a message or enumeration it
    /// names but does not list.
    public static func catalog(of description: Daemon.Description) throws(SchemaCatalogError) -> SchemaCatalog {
        let enumerations = description.enums.map { EnumSchema($0.name, cases: $0.cases) }
        var enumsByName: [String: EnumSchema] = [:]
        for enumeration in enumerations { enumsByName[enumeration.name] = enumeration }
        var messages: [MessageSchema] = []
        for message in description.messages {
            messages.append(try schema(message, enumerations: enumsByName))
        }
        return try SchemaCatalog(messages: messages, enumerations: enumerations)
    }

    /// The catalogs of two descriptions compared with each other (two versions of one service, or
    /// what a caller was built against and what its callee serves), in their order; throws when
    /// either does not read back.
    static func catalogs(
        of first: Daemon.Description, _ second: Daemon.Description
    ) throws(SchemaCatalogError) -> (SchemaCatalog, SchemaCatalog) {
        (try catalog(of: first), try catalog(of: second))
    }

    /// The route `info` carries, read back (the inverse of ``info(_:)-(Route)``); throws when its
    /// template is not one a contract could declare, or an alias is given twice.
    public static func route(of info: Daemon.RouteInfo) throws(SchemaCatalogError) -> Route {
        var aliases: [String: String] = [:]
        for alias in info.aliases {
            guard aliases.updateValue(alias.field, forKey: alias.name) == nil else {
                throw SchemaCatalogError(.duplicate, "route \(info.template): alias \(alias.name) is given twice")
            }
        }
        guard let route = Route(validating: info.template, aliases: aliases) else {
            throw SchemaCatalogError(
                .invalid, "route \(info.template) is not a path of non-empty segments starting with /")
        }
        return route
    }

    /// One message's schema from its wire form; nested messages by name, enumerations from
    /// `enumerations`.
    static func schema(
        _ message: Daemon.MessageInfo, enumerations: [String: EnumSchema]
    ) throws(SchemaCatalogError) -> MessageSchema {
        var tags: Set<UInt64> = []
        var names: Set<String> = []
        var fields: [FieldDescriptor] = []
        for info in message.fields {
            let at = "\(message.name).\(info.name)"
            guard info.tag > 0 && info.tag < 1 << 29 else {
                throw SchemaCatalogError(.invalid, "\(at): tag \(info.tag) is outside 1...2^29-1")
            }
            guard tags.insert(info.tag).inserted else {
                throw SchemaCatalogError(.duplicate, "\(at): tag \(info.tag) is used twice")
            }
            guard names.insert(info.name).inserted else {
                throw SchemaCatalogError(.duplicate, "\(at): the name is used twice")
            }
            let type = try fieldType(info.type, at: at, enumerations: enumerations)
            let presence: FieldDescriptor.Presence
            switch info.presence {
            case .required: presence = .required
            case .optional: presence = .optional
            case .repeated: presence = .repeated
            case .defaulted:
                guard let text = info.defaultValue else {
                    throw SchemaCatalogError(.invalid, "\(at): defaulted, with no default")
                }
                presence = .defaulted(try defaultValue(text, type: type, at: at))
            case .unknown(let raw):
                throw SchemaCatalogError(.unsupported, "\(at): presence `\(raw)` is not one this build knows")
            }
            var maxBytes: Int?
            if let bound = info.maxBytes {
                guard type.canBeBounded, bound > 0, bound <= UInt64(UInt32.max) else {
                    throw SchemaCatalogError(
                        .invalid,
                        "\(at): bound \(bound) is not 1...\(UInt32.max) bytes on a string, bytes or enum field")
                }
                maxBytes = Int(bound)
            }
            fields.append(
                FieldDescriptor(
                    tag: UInt32(info.tag), name: info.name, type: type, presence: presence, maxBytes: maxBytes,
                    doc: info.doc,
                    secret: info.secret))
        }
        return MessageSchema(message.name, fields, doc: message.doc)
    }

    /// A type as `describe` spells it (``FieldType/description``): `string`, `enum shop.Category`,
    /// `message shop.Item`.
    static func fieldType(
        _ text: String, at: String, enumerations: [String: EnumSchema]
    ) throws(SchemaCatalogError) -> FieldType {
        switch text {
        case "bool": return .bool
        case "int": return .int
        case "uint": return .uint
        case "double": return .double
        case "string": return .string
        case "bytes": return .bytes
        case "timestamp": return .timestamp
        default:
            if text.hasPrefix("message ") { return .message(named: String(text.dropFirst("message ".count))) }
            if text.hasPrefix("enum ") {
                let name = String(text.dropFirst("enum ".count))
                guard let enumeration = enumerations[name] else {
                    throw SchemaCatalogError(
                        .notListed, "\(at): enumeration \(name) is not among the description's enums")
                }
                return .enumeration(enumeration)
            }
            throw SchemaCatalogError(.unsupported, "\(at): type `\(text)` is not one this build knows")
        }
    }

    /// A default from its JSON form (``jsonText(of:type:)``), read by Wire's own JSON reader.
    static func defaultValue(_ text: String, type: FieldType, at: String) throws(SchemaCatalogError) -> DefaultValue {
        let schema = MessageSchema("default", [.required(1, "value", type)])
        do {
            let value = try MessageValue(json: .object([("value", try JSONValue(parsing: text))]), as: schema)
            if let single = value[1], let defaultValue = DefaultValue(single) { return defaultValue }
        } catch {
            throw SchemaCatalogError(.invalid, "\(at): default \(text) is not a \(type): \(error)")
        }
        throw SchemaCatalogError(.invalid, "\(at): default \(text) is not a \(type)")
    }
}
