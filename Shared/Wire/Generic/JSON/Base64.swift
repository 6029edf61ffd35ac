/// Base64 (RFC 4648) in its two forms here: the standard alphabet, padded, for the JSON form of
/// a `bytes` field (RFC 4648 section 4); and base64url without padding, for opaque tokens such as page cursors
/// that travel in JSON, URLs and shells (section 5).
public struct Base64: Sendable {
    private let alphabet: [UInt8]
    private let padded: Bool
    /// Whether decoding refuses non-zero bits past the last byte (the strict reading of RFC 4648 section 3.5).
    private let rejectsStrayBits: Bool

    /// The standard alphabet, padded with `=`: the JSON form of a `bytes` field. Its decoder
    /// takes padding or none.
    public static let standard = Base64(
        alphabet: Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8), padded: true,
        rejectsStrayBits: false)

    /// Base64url without padding; its decoder refuses padding, stray characters and stray bits,
    /// so one byte string has exactly one text.
    public static let url = Base64(
        alphabet: Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8), padded: false,
        rejectsStrayBits: true)

    /// `bytes` as text; padded to a multiple of four characters when the form pads.
    public func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var group: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { group |= UInt32(byte) << (16 - 8 * offset) }
            for sextet in 0...chunk.count { output.append(alphabet[Int(group >> UInt32(18 - 6 * sextet) & 63)]) }
            if padded { output += repeatElement(UInt8(ascii: "="), count: 3 - chunk.count) }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes `text` encodes, or nil when it is not such text. Whitespace is not allowed.
    public func decode(_ text: String) -> [UInt8]? {
        var characters = Array(text.utf8)
        if padded, characters.count % 4 == 0, characters.last == UInt8(ascii: "=") {
            characters.removeLast()
            if characters.last == UInt8(ascii: "=") { characters.removeLast() }
        }
        guard characters.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(characters.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in characters {
            guard let sextet = value(of: character) else { return nil }
            accumulator = (accumulator << 6 | UInt32(sextet)) & 0xFFFF
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        if rejectsStrayBits, accumulator & ((1 << UInt32(bits)) - 1) != 0 { return nil }
        return output
    }

    private func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case alphabet[62]: 62
        case alphabet[63]: 63
        default: nil
        }
    }
}
