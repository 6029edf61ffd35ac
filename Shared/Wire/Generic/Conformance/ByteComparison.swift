/// Finds where two bodies of the same message first differ, by field, so that a
/// conformance finding can name the field instead of a byte offset.
enum ByteComparison {
    /// One field as it lies in a body: its key and the byte range of its value.
    private struct RawField {
        let tag: UInt32
        let value: Range<Int>
    }

    /// The field path (nil for the whole message) and what differs between the direct
    /// encoder's bytes and the generic encoder's.
    static func firstDifference(direct: [UInt8], generic: [UInt8], schema: MessageSchema) -> (String?, String) {
        difference(direct, direct.indices, generic, generic.indices, schema, path: "")
    }

    private static func difference(
        _ direct: [UInt8], _ directRange: Range<Int>, _ generic: [UInt8], _ genericRange: Range<Int>,
        _ schema: MessageSchema, path: String
    ) -> (String?, String) {
        let place = path.isEmpty ? nil : path
        guard let directFields = fields(direct, directRange), let genericFields = fields(generic, genericRange) else {
            return (
                place,
                "the direct encoder writes \(hex(direct[directRange])), "
                    + "the schema's encoding is \(hex(generic[genericRange]))"
            )
        }
        func name(_ tag: UInt32) -> String { schema.field(tag: tag)?.name ?? "#\(tag)" }
        let directTags = directFields.map(\.tag)
        let genericTags = genericFields.map(\.tag)
        if directTags != genericTags {
            if directTags.sorted() == genericTags.sorted(),
                let index = directTags.indices.first(where: { directTags[$0] != genericTags[$0] })
            {
                let (wrote, expected) = (directTags[index], genericTags[index])
                return (
                    place,
                    "the direct encoder writes `\(name(wrote))` (tag \(wrote)) where the schema's order puts "
                        + "`\(name(expected))` (tag \(expected)): write fields in schema order"
                )
            }
            for field in schema.fields {
                let directCount = directTags.count { $0 == field.tag }
                let genericCount = genericTags.count { $0 == field.tag }
                guard directCount != genericCount else { continue }
                let fieldPath = FieldPath.child(path, field.name)
                if directCount == 0 {
                    let problem =
                        "the direct encoder leaves it out, but the schema always writes it (\(field.presence))"
                    return (fieldPath, problem)
                }
                return (
                    fieldPath, "the direct encoder writes it \(directCount) times, the schema \(genericCount) times"
                )
            }
        }
        for (directField, genericField) in zip(directFields, genericFields)
        where direct[directField.value] != generic[genericField.value] {
            let fieldPath = FieldPath.child(path, name(directField.tag))
            if case .message(let type)? = schema.field(tag: directField.tag)?.type {
                return difference(
                    direct, lengthDelimitedContent(direct, directField.value), generic,
                    lengthDelimitedContent(generic, genericField.value), type.schema, path: fieldPath)
            }
            return (
                fieldPath,
                "the direct encoder writes \(hex(direct[directField.value])), "
                    + "the schema's encoding is \(hex(generic[genericField.value]))"
            )
        }
        return (place, "the bodies differ: direct \(hex(direct[directRange])), schema \(hex(generic[genericRange]))")
    }

    /// The fields of the body in `range`, or nil when it is not a well-formed body.
    private static func fields(_ bytes: [UInt8], _ range: Range<Int>) -> [RawField]? {
        var body = BodyReader(ByteReader(bytes, start: range.lowerBound, end: range.upperBound))
        var result: [RawField] = []
        do {
            while let tag = try body.nextTag() {
                let start = body.bytes.index
                try body.skip()
                result.append(RawField(tag: tag, value: start..<body.bytes.index))
            }
        } catch {
            return nil
        }
        return result
    }

    /// The range of a length-delimited value's content, after its length prefix.
    private static func lengthDelimitedContent(_ bytes: [UInt8], _ range: Range<Int>) -> Range<Int> {
        var reader = ByteReader(bytes, start: range.lowerBound, end: range.upperBound)
        _ = try? reader.readVarint()
        return reader.index..<range.upperBound
    }

    /// Bytes as spaced hex, cut after 32 bytes.
    static func hex(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef")
        let shown = bytes.prefix(32).map { String([digits[Int($0 >> 4)], digits[Int($0 & 15)]]) }
        return "[" + shown.joined(separator: " ") + (bytes.count > 32 ? " …" : "") + "]"
    }
}
