extension MessageValue {
    /// How deep messages may nest inside one body before the generic decoder refuses it,
    /// so that hostile input cannot exhaust the stack.
    public static let maxNestingDepth = 100

    /// Decodes a body by `schema` instead of by compiled code.
    ///
    /// Fields come out in schema order; absent defaulted fields take their default and
    /// absent repeated ones an empty list. Unknown tags are skipped, as an older reader
    /// must; with `strict`, an unknown tag or a singular field seen twice is an error
    /// instead (the checks ``SchemaConformance`` makes). Errors name the field path,
    /// e.g. `shop.Item.prices.cents: expected varint, found fixed64`.
    public init(decoding bytes: [UInt8], as schema: MessageSchema, strict: Bool = false) throws(WireDecodingError) {
        try self.init(decoding: bytes, from: 0, to: bytes.count, as: schema, strict: strict)
    }

    /// Decodes the body at `bytes[start..<end]` by `schema`; see ``init(decoding:as:strict:)``.
    public init(
        decoding bytes: [UInt8], from start: Int, to end: Int, as schema: MessageSchema, strict: Bool = false
    ) throws(WireDecodingError) {
        let decoder = GenericDecoder(strict: strict)
        do {
            self = try decoder.message(schema, ByteReader(bytes, start: start, end: end), depth: 1)
        } catch {
            throw error.resolved(in: schema)
        }
    }
}

/// Reads bodies by schema: the decoding half of the generic codec.
struct GenericDecoder {
    let strict: Bool

    func message(_ schema: MessageSchema, _ bytes: ByteReader, depth: Int) throws(WireDecodingError) -> MessageValue {
        guard depth <= MessageValue.maxNestingDepth else {
            throw WireDecodingError.invalidValue("messages nest deeper than \(MessageValue.maxNestingDepth) levels")
        }
        let fields = schema.fields
        var singles = [WireValue?](repeating: nil, count: fields.count)
        var lists = [[WireValue]](repeating: [], count: fields.count)
        var body = BodyReader(bytes)
        // The elements of a repeated field come one after another: look a catalog's message up
        // once for the run, not once per element (see FieldType.resolvedForElements).
        var lastIndex = -1
        var lastType = FieldType.bool
        while let tag = try body.nextTag() {
            guard let index = fields.firstIndex(where: { $0.tag == tag }) else {
                if strict {
                    throw WireDecodingError.invalidValue("tag \(tag) is not a field of \(schema.name)", tag: tag)
                }
                try body.skip()
                continue
            }
            let field = fields[index]
            guard body.wireType == field.type.wireType else {
                throw WireDecodingError.wrongWireType(expected: field.type.wireType, found: body.wireType, tag: tag)
            }
            if let maxBytes = field.maxBytes { try body.checkLength(atMost: maxBytes) }
            let value: WireValue
            do {
                if index != lastIndex { (lastIndex, lastType) = (index, field.type.resolvedForElements) }
                value = try self.value(lastType, &body.bytes, depth: depth)
            } catch {
                throw error.inside(tag)
            }
            // Checked again once decoded: invalid UTF-8 became three-byte U+FFFDs.
            if let problem = field.boundProblem(value) {
                throw WireDecodingError.invalidValue(problem + " once invalid UTF-8 was replaced", tag: tag)
            }
            if case .repeated = field.presence {
                lists[index].append(value)
            } else {
                if strict && singles[index] != nil {
                    throw WireDecodingError.invalidValue("field appears more than once", tag: tag)
                }
                singles[index] = value
            }
        }
        var result = MessageValue()
        result.fields.reserveCapacity(fields.count)
        for (index, field) in fields.enumerated() {
            switch field.presence {
            case .repeated:
                result.fields.append(.init(tag: field.tag, value: .list(lists[index])))
            case .required:
                guard let value = singles[index] else { throw WireDecodingError.missingField(tag: field.tag) }
                result.fields.append(.init(tag: field.tag, value: value))
            case .optional:
                if let value = singles[index] { result.fields.append(.init(tag: field.tag, value: value)) }
            case .defaulted(let defaultValue):
                result.fields.append(.init(tag: field.tag, value: singles[index] ?? WireValue(defaultValue)))
            }
        }
        return result
    }

    /// Reads one value of `type`; the key has been read and its wire type checked.
    func value(_ type: FieldType, _ reader: inout ByteReader, depth: Int) throws(WireDecodingError) -> WireValue {
        switch type {
        case .bool: return .bool(try Bool.readValue(from: &reader))
        case .int: return .int(try Int64.readValue(from: &reader))
        case .uint: return .uint(try UInt64.readValue(from: &reader))
        case .double: return .double(try Double.readValue(from: &reader))
        case .string: return .string(try String.readValue(from: &reader))
        case .bytes: return .bytes(try [UInt8].readValue(from: &reader))
        case .timestamp: return .timestamp(try Timestamp.readValue(from: &reader))
        case .enumeration: return .enumeration(try String.readValue(from: &reader))
        case .message(let messageType):
            let length = try reader.readLength()
            let nested = ByteReader(reader.storage, start: reader.index, end: reader.index + length)
            reader.index += length
            return .message(try message(messageType.schema, nested, depth: depth + 1))
        }
    }
}
