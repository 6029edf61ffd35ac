extension MessageValue {
    /// This message's JSON form by `schema`: an object whose keys are the field names in
    /// schema order.
    ///
    /// `int` and `uint` are JSON numbers, `double` a number (or `"NaN"`, `"Infinity"`,
    /// `"-Infinity"`), `bytes` a base64 string, `timestamp` an RFC 3339 string,
    /// an enumeration its case name, a nested message an object, a repeated field an
    /// array; an absent optional field is left out and an absent defaulted one shows
    /// its default. Throws when the value does not fit the schema.
    public func json(as schema: MessageSchema) throws(WireValueError) -> JSONValue {
        try JSONFormWriter(root: schema.name).object(self, schema, path: "")
    }

    /// This message's JSON form as text; see ``json(as:)``.
    public func jsonText(as schema: MessageSchema, pretty: Bool = false) throws(WireValueError) -> String {
        try json(as: schema).serialized(pretty: pretty)
    }
}

/// Turns message values into their JSON form.
struct JSONFormWriter {
    let root: String

    func object(_ value: MessageValue, _ schema: MessageSchema, path: String) throws(WireValueError) -> JSONValue {
        try value.checkTags(against: schema, root: root, path: path)
        var members: [(key: String, value: JSONValue)] = []
        members.reserveCapacity(schema.fields.count)
        for field in schema.fields {
            let fieldPath = FieldPath.child(path, field.name)
            let present = value[field.tag]
            switch field.presence {
            case .required:
                guard let present else {
                    throw WireValueError(
                        .missingField, messageName: root, path: fieldPath, reason: "required field is missing")
                }
                members.append((field.name, try single(field.type, present, path: fieldPath)))
            case .optional:
                if let present { members.append((field.name, try single(field.type, present, path: fieldPath))) }
            case .defaulted(let defaultValue):
                let value = present ?? WireValue(defaultValue)
                members.append((field.name, try single(field.type, value, path: fieldPath)))
            case .repeated:
                var elements: [JSONValue] = []
                if let present {
                    guard case .list(let list) = present else {
                        throw mismatch(fieldPath, "expected a list, got \(present.kindDescription)")
                    }
                    let elementType = field.type.resolvedForElements
                    for (index, element) in list.enumerated() {
                        elements.append(try single(elementType, element, path: FieldPath.element(fieldPath, index)))
                    }
                }
                members.append((field.name, .array(elements)))
            }
        }
        return .object(members)
    }

    private func single(_ type: FieldType, _ value: WireValue, path: String) throws(WireValueError) -> JSONValue {
        switch (type, value) {
        case (.bool, .bool(let bool)): return .bool(bool)
        case (.int, .int(let int)): return .integer(int)
        case (.uint, .uint(let uint)): return .integer(uint)
        case (.double, .double(let double)): return JSONNumbers.json(double)
        case (.string, .string(let string)): return .string(string)
        case (.bytes, .bytes(let bytes)): return .string(Base64.standard.encode(bytes))
        case (.timestamp, .timestamp(let timestamp)): return .string(RFC3339.format(timestamp))
        case (.enumeration, .enumeration(let name)): return .string(name)
        case (.message(let type), .message(let nested)): return try object(nested, type.schema, path: path)
        default: throw mismatch(path, "expected \(type), got \(value.kindDescription)")
        }
    }

    private func mismatch(_ path: String, _ reason: String) -> WireValueError {
        WireValueError(.typeMismatch, messageName: root, path: path, reason: reason)
    }
}
