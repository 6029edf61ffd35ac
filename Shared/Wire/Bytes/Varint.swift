/// LEB128 variable-length integers and ZigZag mapping, as Protocol Buffers uses them.
///
/// A `UInt64` takes 1–10 bytes, 7 bits a byte, least significant group first,
/// the high bit set on every byte but the last. Signed values are ZigZag-mapped
/// first so that small negative numbers stay short: 0 → 0, -1 → 1, 1 → 2, -2 → 3.
public enum Varint {
    /// The most bytes a 64-bit varint may take.
    public static let maxLength = 10

    /// Maps a signed integer onto an unsigned one, small magnitudes first.
    @inlinable
    public static func zigZag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    /// Inverts ``zigZag(_:)``.
    @inlinable
    public static func unZigZag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }

    /// The number of bytes `value` takes as a varint.
    @inlinable
    public static func length(of value: UInt64) -> Int {
        var value = value
        var count = 1
        while value >= 0x80 {
            value >>= 7
            count += 1
        }
        return count
    }
}
