/// An append-only byte buffer with the primitives the frame, the envelope and the body codec write.
///
/// Multi-byte integers in the frame and envelope are big-endian; the body codec uses
/// little-endian fixed-width values and varints (see docs/PROTOCOL.md).
public struct ByteWriter: Sendable {
    /// The bytes written so far.
    public var bytes: [UInt8]

    /// Creates an empty writer with room for `capacity` bytes before it grows.
    @inlinable
    public init(capacity: Int = 128) {
        bytes = []
        // Not for 0: a nested message's writer starts empty and borrows its parent's bytes.
        if capacity > 0 { bytes.reserveCapacity(capacity) }
    }

    /// The number of bytes written so far.
    @inlinable
    public var count: Int { bytes.count }

    /// Appends one byte.
    @inlinable
    public mutating func writeByte(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends raw bytes.
    @inlinable
    public mutating func writeBytes(_ other: some Sequence<UInt8>) {
        let copied: Void? = other.withContiguousStorageIfAvailable { buffer in append(copying: buffer) }
        if copied == nil { bytes.append(contentsOf: other) }
    }

    /// Appends the bytes in `buffer`, copied in one go into room made at the end: an array's
    /// append of a sequence copies through the sequence's generic path, about 75 instructions
    /// for eight bytes.
    @inlinable
    mutating func append(copying buffer: UnsafeBufferPointer<UInt8>) {
        guard let source = buffer.baseAddress else { return }
        append(buffer.count) { room in room.copyMemory(from: source, byteCount: buffer.count) }
    }

    /// Appends `count` bytes, which `store` writes at the start of the room made for them at
    /// the end (all `count` of them: each is read as written).
    @inlinable
    mutating func append(_ count: Int, storing store: (UnsafeMutableRawPointer) -> Void) {
        guard count > 0 else { return }
        bytes.append(addingCapacity: count) { span in
            span.withUnsafeMutableBufferPointer { room, initialized in
                store(UnsafeMutableRawPointer(room.baseAddress!))
                initialized = count
            }
        }
    }

    /// Appends `value` as a varint.
    @inlinable
    public mutating func writeVarint(_ value: UInt64) {
        // Keys, lengths and small integers mostly fit one byte.
        if value < 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value))
        } else {
            writeLongVarint(value)
        }
    }

    /// Appends a varint of two bytes or more.
    @usableFromInline
    mutating func writeLongVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    /// Appends a big-endian 16-bit integer.
    @inlinable
    public mutating func writeUInt16BE(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    /// Appends a big-endian 32-bit integer.
    @inlinable
    public mutating func writeUInt32BE(_ value: UInt32) {
        writeBigEndian(value)
    }

    /// Appends a big-endian 64-bit integer.
    @inlinable
    public mutating func writeUInt64BE(_ value: UInt64) {
        writeBigEndian(value)
    }

    /// Appends `value` most significant byte first.
    @inlinable
    mutating func writeBigEndian(_ value: some FixedWidthInteger) {
        writeBytes(ofStored: value.bigEndian)
    }

    /// Appends a little-endian 64-bit integer (the body codec's fixed64).
    @inlinable
    public mutating func writeUInt64LE(_ value: UInt64) {
        writeBytes(ofStored: value.littleEndian)
    }

    /// Appends the bytes of `value` as it lies in memory (already in the byte order wanted),
    /// stored at once into room made at the end: a byte at a time costs a uniqueness and
    /// capacity check per byte (about 150 instructions for a 64-bit integer), and an append of
    /// its bytes as a sequence about 75.
    @inlinable
    mutating func writeBytes(ofStored value: some FixedWidthInteger) {
        append(MemoryLayout.size(ofValue: value)) { room in room.storeBytes(of: value, as: type(of: value)) }
    }

    /// Overwrites four bytes at `offset` with a big-endian 32-bit integer.
    @inlinable
    public mutating func setUInt32BE(_ value: UInt32, at offset: Int) {
        bytes[offset] = UInt8(truncatingIfNeeded: value >> 24)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: value >> 16)
        bytes[offset + 2] = UInt8(truncatingIfNeeded: value >> 8)
        bytes[offset + 3] = UInt8(truncatingIfNeeded: value)
    }
}
