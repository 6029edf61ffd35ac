/// Splits a byte stream into frames: a 4-byte big-endian length N, then N bytes of payload.
///
/// Feed it bytes in chunks of any size with `append(_:)` and take complete payloads
/// with ``nextFrame()``; the result does not depend on how the stream was split.
/// A length of 0, or above ``maxFrameSize``, is reported as soon as the 4 length bytes
/// arrive (no payload is buffered for it) and poisons the decoder: the stream
/// cannot be resynchronised, so the connection must close.
///
/// ```swift
/// var decoder = FrameDecoder(maxFrameSize: 4 << 20)
/// decoder.append(chunk)
/// while let payload = try decoder.nextFrame() { handle(payload) }
/// ```
public struct FrameDecoder: Sendable {
    /// The default limit on a frame's payload: 4 MiB.
    public static let defaultMaxFrameSize = 4 << 20

    /// The largest payload accepted, in bytes.
    public let maxFrameSize: Int

    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var failure: FrameError?

    /// Creates a decoder that accepts payloads of 1 to `maxFrameSize` bytes.
    public init(maxFrameSize: Int = FrameDecoder.defaultMaxFrameSize) {
        precondition(maxFrameSize > 0 && maxFrameSize <= Int(UInt32.max), "frame limit must be 1...UInt32.max")
        self.maxFrameSize = maxFrameSize
    }

    /// Bytes received but not yet returned as a frame.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Appends received bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compactIfWorthIt()
        buffer.append(contentsOf: bytes)
    }

    /// Appends received bytes.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        compactIfWorthIt()
        buffer.append(contentsOf: bytes)
    }

    /// Returns the next complete payload, `nil` when more bytes are needed,
    /// or throws when the stream is invalid (and on every call after that).
    public mutating func nextFrame() throws(FrameError) -> [UInt8]? {
        if let failure { throw failure }
        let available = buffer.count - readIndex
        guard available >= 4 else { return nil }
        let length =
            UInt32(buffer[readIndex]) << 24 | UInt32(buffer[readIndex + 1]) << 16
            | UInt32(buffer[readIndex + 2]) << 8 | UInt32(buffer[readIndex + 3])
        if length == 0 {
            failure = .emptyFrame
            throw .emptyFrame
        }
        if Int(length) > maxFrameSize {
            let error = FrameError.oversized(length: length, limit: maxFrameSize)
            failure = error
            throw error
        }
        guard available - 4 >= Int(length) else { return nil }
        let start = readIndex + 4
        let payload = Array(buffer[start..<start + Int(length)])
        readIndex = start + Int(length)
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16)
            readIndex = 0
        }
        return payload
    }

    private mutating func compactIfWorthIt() {
        if readIndex > 0 && readIndex >= buffer.count / 2 {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }
}
