/// Splits a byte stream into frames: a 4-byte big-endian length N, then N bytes of payload.
///
/// Feed it bytes in chunks of any size with `append(_:)` and take complete payloads
/// with ``nextFrame()``; the result does not depend on how the stream was split.
/// A length of 0, or above ``maxFrameSize``, is reported as soon as the 4 length bytes
/// arrive (no payload is buffered for it) and poisons the decoder: the stream
/// cannot be resynchronised, so the connection must close.
///
/// A frame longer than 64 KiB that has not fully arrived is gathered in an array of
/// its own, reserved whole when its length arrives (as tokio-util's `LengthDelimitedCodec`
/// reserves), and handed out as that array: its bytes are copied once, from the read, where a
/// shared buffer would copy them again as it grows and once more to cut the frame out. The
/// limit bounds the reservation, and pages not yet written take no memory the process did not
/// already hold.
///
/// ```swift
/// var decoder = FrameDecoder(maxFrameSize: 4 << 20)
/// decoder.append(chunk)
/// while let payload = try decoder.nextFrame() { handle(payload) }
/// ```
public struct FrameDecoder: Sendable {
    /// The default limit on a frame's payload: 4 MiB.
    public static let defaultMaxFrameSize = 4 << 20

    /// Frames longer than this that arrive over several reads are gathered in an array of their
    /// own; shorter ones are cut out of the buffer that holds everything else.
    package static let gatherThreshold = 64 << 10

    /// The largest payload accepted, in bytes.
    public let maxFrameSize: Int

    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var failure: FrameError?
    /// The payload of a long frame still arriving (its header already consumed), and its length;
    /// 0 when none is. While one is, ``buffer`` is empty: every byte received is this frame's
    /// until it is whole.
    private var gathered: [UInt8] = []
    private var gatheredLength = 0

    /// Creates a decoder that accepts payloads of 1 to `maxFrameSize` bytes.
    public init(maxFrameSize: Int = FrameDecoder.defaultMaxFrameSize) {
        precondition(maxFrameSize > 0 && maxFrameSize <= Int(UInt32.max), "frame limit must be 1...UInt32.max")
        self.maxFrameSize = maxFrameSize
    }

    /// Bytes received but not yet returned as a frame.
    public var bufferedByteCount: Int {
        buffer.count - readIndex + (gatheredLength > 0 ? FrameEncoder.headerSize + gathered.count : 0)
    }

    /// Appends received bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes
        if gatheredLength > 0 {
            let taken = min(rest.count, gatheredLength - gathered.count)
            gathered.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[..<taken]))
            rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
            guard !rest.isEmpty else { return }
        }
        compactIfWorthIt()
        buffer.append(contentsOf: rest)
    }

    /// Appends received bytes.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        guard gatheredLength == 0 else {
            Array(bytes).withUnsafeBytes { append($0) }
            return
        }
        compactIfWorthIt()
        buffer.append(contentsOf: bytes)
    }

    /// Returns the next complete payload, `nil` when more bytes are needed,
    /// or throws when the stream is invalid (and on every call after that).
    public mutating func nextFrame() throws(FrameError) -> [UInt8]? {
        if let failure { throw failure }
        if gatheredLength > 0 {
            guard gathered.count == gatheredLength else { return nil }
            gatheredLength = 0
            var payload: [UInt8] = []
            swap(&payload, &gathered)
            return payload
        }
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
        guard available - 4 >= Int(length) else {
            if Int(length) > Self.gatherThreshold { gather(length: Int(length)) }
            return nil
        }
        let start = readIndex + 4
        let payload = Array(buffer[start..<start + Int(length)])
        readIndex = start + Int(length)
        if readIndex == buffer.count { emptyBuffer() }
        return payload
    }

    /// Moves the start of a long frame, the last thing buffered, into an array reserved for all of it.
    private mutating func gather(length: Int) {
        gathered.reserveCapacity(length)
        gathered.append(contentsOf: buffer[(readIndex + FrameEncoder.headerSize)...])
        gatheredLength = length
        emptyBuffer()
    }

    /// Empties the buffer once everything in it was taken, keeping its memory when it is small
    /// (the next frames reuse it) and handing it back when a burst made it large.
    private mutating func emptyBuffer() {
        buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16)
        readIndex = 0
    }

    private mutating func compactIfWorthIt() {
        if readIndex > 0 && readIndex >= buffer.count / 2 {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }
}
