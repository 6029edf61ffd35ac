import VerticalsWire

/// Bodies the generic encoder would never write, for the decoders behind each operation:
/// nesting as deep as the schema goes (thousands of levels for a message that holds itself),
/// a body cut short, every field twice, an unknown field claiming more bytes than follow, a
/// flipped byte.
enum RawBodies {
    /// Levels of nesting a recursive message gets.
    static let deepNesting = 3_000

    /// `body` (a valid Input of `schema`) changed in one of those ways.
    static func mutate(_ body: [UInt8], schema: MessageSchema, using random: inout FuzzRandom) -> (
        bytes: [UInt8], how: String
    ) {
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            if let deep = nested(schema, levels: deepNesting) { return (deep, "nested as deep as the schema goes") }
            return (body + body, "every field twice")
        case 1:
            guard !body.isEmpty else { return ([0x0A], "a lone field key") }
            return (Array(body.prefix(Int.random(in: 0..<body.count, using: &random))), "cut short")
        case 2:
            return (body + body, "every field twice")
        case 3:
            var writer = ByteWriter(capacity: body.count + 16)
            writer.writeBytes(body)
            writer.writeVarint(UInt64(1 << 28) << 3 | 2) // an unknown tag, length-delimited
            writer.writeVarint(UInt64.max >> 1)
            return (writer.bytes, "an unknown field longer than the body")
        default:
            guard !body.isEmpty else { return ([0xFF], "one stray byte") }
            var bytes = body
            let index = Int.random(in: 0..<bytes.count, using: &random)
            bytes[index] ^= UInt8.random(in: 1...255, using: &random)
            return (bytes, "byte \(index) flipped")
        }
    }

    /// A body that nests through each level's first message field, up to `levels` deep (a
    /// message that holds itself goes all the way); nil when `schema` has no message field.
    /// Written by hand: required fields are left out, which the generic encoder refuses.
    static func nested(_ schema: MessageSchema, levels: Int) -> [UInt8]? {
        var chain: [UInt32] = []
        var current = schema
        while chain.count < levels {
            guard let field = current.fields.first(where: { if case .message = $0.type { true } else { false } }),
                case .message(let reference) = field.type
            else { break }
            chain.append(field.tag)
            current = reference.schema
        }
        guard !chain.isEmpty else { return nil }
        var body: [UInt8] = []
        for tag in chain.reversed() {
            var writer = ByteWriter(capacity: body.count + 8)
            writer.writeVarint(UInt64(tag) << 3 | 2)
            writer.writeVarint(UInt64(body.count))
            writer.writeBytes(body)
            body = writer.bytes
        }
        return body
    }
}
