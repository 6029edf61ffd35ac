/// Random (version 4) UUIDs as lower-case text, for the ids of stored rows.
///
/// The same text `UUID().uuidString.lowercased()` gives, without its cost here:
/// swift-corelibs-foundation opens, reads and closes `/dev/urandom` for every UUID, three
/// system calls per booking on a hot path; the standard library's generator uses `getrandom`.
///
/// ```swift
/// let id = "a_" + RandomID.uuidString()  // a_3f2b8c1e-9d4a-4f6b-8e2d-1c0a5b7e9f13
/// ```
public enum RandomID {
    private static let digits = Array("0123456789abcdef".utf8)

    /// A new random UUID (RFC 9562 version 4, variant 10) in lower-case text.
    public static func uuidString() -> String {
        var generator = SystemRandomNumberGenerator()
        var high = generator.next() as UInt64
        var low = generator.next() as UInt64
        high = (high & ~0xF000) | 0x4000 // version 4
        low = (low & ~(0xC000 << 48)) | (0x8000 << 48) // variant 10
        return String(unsafeUninitializedCapacity: 36) { buffer in
            var position = 0
            for nibble in 0..<32 {
                if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 {
                    buffer[position] = UInt8(ascii: "-")
                    position += 1
                }
                let word = nibble < 16 ? high : low
                let shift = UInt64(60 - (nibble % 16) * 4)
                buffer[position] = digits[Int((word >> shift) & 0xF)]
                position += 1
            }
            return position
        }
    }
}
