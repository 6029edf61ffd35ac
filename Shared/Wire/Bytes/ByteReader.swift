/// A cursor over a byte array that reads the primitives ``ByteWriter`` writes.
///
/// It never copies the storage: nested readers share it and narrow `end`.
/// Every read checks bounds and throws ``ByteReader/Underflow`` instead of trapping.
public struct ByteReader: Sendable {
    /// Thrown when a read needs more bytes than remain, or a varint runs past 10 bytes.
    ///
    /// A ``CodedError`` whose ``code`` is `underflow` and whose offset is also the
    /// detail `offset`. It stays one stored `Int`: code, message and details are computed only
    /// when read, never on the throw, which every read may make.
    public struct Underflow: CodedError {
        /// What kind of problem it is.
        public typealias Code = ErrorKind<Underflow>

        /// Where the read started.
        public let offset: Int
        /// Creates the error for a read that started at `offset`.
        @inlinable public init(offset: Int) { self.offset = offset }

        /// What kind of problem it is: always `underflow`.
        public var code: Code { .underflow }

        /// Where the read started, and that the bytes ran out.
        public var message: String {
            "a read at offset \(offset) needs more bytes than remain (or a varint runs past 10 bytes)"
        }

        /// The offset, as the detail `offset`.
        public var details: [ErrorDetail] { [ErrorDetail("offset", String(offset))] }
    }

    /// The whole storage; only `index..<end` is this reader's.
    public let storage: [UInt8]
    /// The next byte to read.
    public var index: Int
    /// One past the last byte this reader may read (at most `storage.count`); a nested message
    /// narrows it for the time it is read.
    public var end: Int

    /// Creates a reader over `storage[start..<end]` (all of it by default).
    @inlinable
    public init(_ storage: [UInt8], start: Int = 0, end: Int? = nil) {
        self.storage = storage
        self.index = start
        self.end = end ?? storage.count
    }

    /// The number of bytes left.
    @inlinable
    public var remaining: Int { end - index }

    /// Whether every byte has been read.
    @inlinable
    public var isAtEnd: Bool { index >= end }

    /// Reads one byte.
    @inlinable
    public mutating func readByte() throws(Underflow) -> UInt8 {
        guard index < end else { throw Underflow(offset: index) }
        defer { index += 1 }
        return storage[index]
    }

    /// Reads a varint.
    @inlinable
    public mutating func readVarint() throws(Underflow) -> UInt64 {
        // Most keys, lengths and small integers take one byte: read those inline.
        if index < end {
            let first = storage[index]
            if first < 0x80 {
                index += 1
                return UInt64(first)
            }
        }
        return try readLongVarint()
    }

    /// Reads a varint of any length (the general case of ``readVarint()``, kept out of line).
    @usableFromInline
    mutating func readLongVarint() throws(Underflow) -> UInt64 {
        let start = index
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var at = start
        while at < end {
            let byte = storage[at]
            at += 1
            // Masking shifts: `shift` stays below 64, so no over-shift check is needed.
            result |= UInt64(byte & 0x7F) &<< shift
            if byte < 0x80 {
                // The tenth byte carries bit 63 only.
                guard shift < 63 || byte <= 1 else { break }
                index = at
                return result
            }
            shift += 7
            if shift > 63 { break }
        }
        throw Underflow(offset: start)
    }

    /// Reads a big-endian 16-bit integer.
    @inlinable
    public mutating func readUInt16BE() throws(Underflow) -> UInt16 {
        guard remaining >= 2 else { throw Underflow(offset: index) }
        defer { index += 2 }
        return UInt16(storage[index]) << 8 | UInt16(storage[index + 1])
    }

    /// Reads a big-endian 32-bit integer.
    @inlinable
    public mutating func readUInt32BE() throws(Underflow) -> UInt32 {
        try readBigEndian()
    }

    /// Reads a big-endian 64-bit integer.
    @inlinable
    public mutating func readUInt64BE() throws(Underflow) -> UInt64 {
        try readBigEndian()
    }

    /// Reads a little-endian 64-bit integer.
    @inlinable
    public mutating func readUInt64LE() throws(Underflow) -> UInt64 {
        try (readBigEndian() as UInt64).byteSwapped
    }

    /// Reads an integer of `Integer`'s width, most significant byte first.
    @inlinable
    mutating func readBigEndian<Integer: FixedWidthInteger & UnsignedInteger>() throws(Underflow) -> Integer {
        let width = MemoryLayout<Integer>.size
        // One unaligned load instead of a checked index per byte, so the storage's own bounds
        // are checked with the reader's: `end` is the caller's and could claim more than it holds.
        guard remaining >= width, index >= 0, index <= storage.count - width else { throw Underflow(offset: index) }
        let value = storage.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: index, as: Integer.self) }
        index += width
        return Integer(bigEndian: value)
    }

    /// Reads `count` raw bytes.
    @inlinable
    public mutating func readBytes(_ count: Int) throws(Underflow) -> ArraySlice<UInt8> {
        guard count >= 0, remaining >= count else { throw Underflow(offset: index) }
        defer { index += count }
        return storage[index..<index + count]
    }

    /// The bytes not yet read (`index..<end`) as an array: `storage` itself when they are all of
    /// it, else a copy made with one allocation and one `memcpy`. What a handler keeps of a frame
    /// read in place.
    ///
    /// Copied from an `UnsafeBufferPointer`, whose copy the standard library specialises for
    /// `UInt8`: `Array(storage[index..<end])` copies a slice through a generic path, and
    /// `Array(unsafeUninitializedCapacity:)` looked up the array's generic metadata at run time,
    /// each a few hundred instructions a call.
    public func remainingBytes() -> [UInt8] {
        if index == 0, end == storage.count { return storage }
        precondition(index >= 0 && index <= end && end <= storage.count, "the reader's bytes lie outside its storage")
        return storage.withUnsafeBufferPointer { Array(UnsafeBufferPointer(rebasing: $0[index..<end])) }
    }

    /// Reads `count` bytes as UTF-8 text, repairing invalid sequences.
    @inlinable
    public mutating func readUTF8(_ count: Int) throws(Underflow) -> String {
        guard count >= 0, remaining >= count else { throw Underflow(offset: index) }
        defer { index += count }
        return storage.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[index..<index + count]), as: UTF8.self)
        }
    }

    /// Skips `count` bytes.
    @inlinable
    public mutating func skip(_ count: Int) throws(Underflow) {
        guard count >= 0, remaining >= count else { throw Underflow(offset: index) }
        index += count
    }
}

extension ErrorKind where Domain == ByteReader.Underflow {
    /// A read needed more bytes than remain, or a varint ran past 10 bytes.
    public static var underflow: Self { Self("underflow") }
}
