extension MessageValue {
    /// Encodes this value as a body by `schema`: byte for byte what a message's direct
    /// codec writes for the same value.
    ///
    /// Fields are written in schema order: required and defaulted fields always (an
    /// absent defaulted field writes its default), optional ones when present, repeated
    /// ones once per element. Throws when the value does not fit the schema: a missing
    /// required field, a tag the schema lacks, or a value of the wrong type.
    public func encoded(as schema: MessageSchema) throws(WireValueError) -> [UInt8] {
        var writer = ByteWriter(capacity: 64)
        try GenericEncoder(root: schema.name).write(self, schema, path: "", into: &writer)
        return writer.bytes
    }
}

/// Writes bodies by schema: the encoding half of the generic codec.
struct GenericEncoder {
    let root: String

    func write(_ value: MessageValue, _ schema: MessageSchema, path: String, into writer: inout ByteWriter)
        throws(WireValueError)
    {
        try value.checkTags(against: schema, root: root, path: path)
        for field in schema.fields {
            let fieldPath = FieldPath.child(path, field.name)
            let present = value[field.tag]
            switch field.presence {
            case .required:
                guard let present else { throw error(.missingField, fieldPath, "required field is missing") }
                try writeField(field, present, path: fieldPath, into: &writer)
            case .optional:
                if let present { try writeField(field, present, path: fieldPath, into: &writer) }
            case .defaulted(let defaultValue):
                try writeField(field, present ?? WireValue(defaultValue), path: fieldPath, into: &writer)
            case .repeated:
                guard let present else { continue }
                guard case .list(let elements) = present else {
                    throw error(.typeMismatch, fieldPath, "expected a list, got \(present.kindDescription)")
                }
                let elementType = field.type.resolvedForElements
                for (index, element) in elements.enumerated() {
                    try writeField(
                        field, element, as: elementType, path: FieldPath.element(fieldPath, index), into: &writer)
                }
            }
        }
    }

    private func writeField(
        _ field: FieldDescriptor, _ value: WireValue, as type: FieldType? = nil, path: String,
        into writer: inout ByteWriter
    ) throws(WireValueError) {
        let type = type ?? field.type
        // What a peer's decoder would refuse is refused before it is sent.
        if let problem = field.boundProblem(value) { throw error(.outOfRange, path, problem) }
        if case .timestamp(let timestamp) = value, !timestamp.isInWireRange {
            throw error(.outOfRange, path, timestamp.outsideWireRange)
        }
        writer.writeVarint(UInt64(field.tag) << 3 | UInt64(type.wireType.rawValue))
        switch (type, value) {
        case (.bool, .bool(let bool)): bool.writeValue(to: &writer)
        case (.int, .int(let int)): int.writeValue(to: &writer)
        case (.uint, .uint(let uint)): uint.writeValue(to: &writer)
        case (.double, .double(let double)): double.writeValue(to: &writer)
        case (.string, .string(let string)): string.writeValue(to: &writer)
        case (.bytes, .bytes(let bytes)): bytes.writeValue(to: &writer)
        case (.timestamp, .timestamp(let timestamp)): timestamp.writeValue(to: &writer)
        case (.enumeration, .enumeration(let name)): name.writeValue(to: &writer)
        case (.message(let type), .message(let nested)):
            var body = ByteWriter(capacity: 32)
            try write(nested, type.schema, path: path, into: &body)
            writer.writeVarint(UInt64(body.count))
            writer.writeBytes(body.bytes)
        default:
            throw error(.typeMismatch, path, "expected \(type), got \(value.kindDescription)")
        }
    }

    private func error(_ code: WireValueError.Code, _ path: String, _ reason: String) -> WireValueError {
        WireValueError(code, messageName: root, path: path, reason: reason)
    }
}

extension MessageValue {
    /// Throws unless every field's tag is in `schema` and appears once.
    func checkTags(against schema: MessageSchema, root: String, path: String) throws(WireValueError) {
        var seen = Set<UInt32>()
        for field in fields {
            guard let known = schema.field(tag: field.tag) else {
                throw WireValueError(
                    .unknownField, messageName: root, path: FieldPath.child(path, "#\(field.tag)"),
                    reason: "tag \(field.tag) is not a field of \(schema.name)")
            }
            guard seen.insert(field.tag).inserted else {
                throw WireValueError(
                    .duplicateField, messageName: root, path: FieldPath.child(path, known.name),
                    reason: "field appears more than once")
            }
        }
    }
}
