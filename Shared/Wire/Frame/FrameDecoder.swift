/// Splits a byte stream into frames: a 4-byte big-endian length N, then N bytes of payload.
///
/// Feed it bytes in chunks of any size with `append(_:)` and take complete payloads
/// with ``nextFrame()``; the result does not depend on how the stream was split.
/// A length of 0, or above ``maxFrameSize``, is reported as soon as the 4 length bytes
/// arrive (no payload is buffered for it) and poisons the decoder: the stream
/// cannot be resynchronised, so the connection must close.
///
/// A frame longer than 64 KiB that has not fully arrived is gathered in an array of
/// its own, allocated whole when its length arrives (as tokio-util's `LengthDelimitedCodec`
/// reserves), and handed out as that array: where a shared buffer would copy its bytes again as
/// it grows and once more to cut the frame out, a reader can receive them straight into it
/// (`gatheringSpace()`), or they are copied once from the read. The limit bounds the
/// allocation, and pages not yet written take no memory the process did not already hold.
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
    /// The payload of a long frame still arriving (its header already consumed), allocated at its
    /// whole length, and how many of its bytes have arrived; empty when none is. While one is,
    /// ``buffer`` is empty: every byte received is this frame's until it is whole. The bytes past
    /// `gatheredCount` are not yet written (see ``gather(length:)``) and nothing reads them: the
    /// array is handed out only once `gatheredCount` reaches its count.
    private var gathered: [UInt8] = []
    private var gatheredCount = 0

    /// Creates a decoder that accepts payloads of 1 to `maxFrameSize` bytes.
    public init(maxFrameSize: Int = FrameDecoder.defaultMaxFrameSize) {
        precondition(maxFrameSize > 0 && maxFrameSize <= Int(UInt32.max), "frame limit must be 1...UInt32.max")
        self.maxFrameSize = maxFrameSize
    }

    /// Bytes received but not yet returned as a frame.
    public var bufferedByteCount: Int {
        buffer.count - readIndex + (gathered.isEmpty ? 0 : FrameEncoder.headerSize + gatheredCount)
    }

    /// Whether a long frame is being gathered (see ``gatheringSpace()``).
    package var isGathering: Bool { !gathered.isEmpty }

    /// Appends received bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        var rest = bytes
        if let space = gatheringSpace() {
            let taken = min(rest.count, space.count)
            space.copyMemory(from: UnsafeRawBufferPointer(rebasing: rest[..<taken]))
            didReceive(intoGatheringSpace: taken)
            rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
            guard !rest.isEmpty else { return }
        }
        compactIfWorthIt()
        buffer.append(contentsOf: rest)
    }

    /// Where the rest of a long frame still arriving goes, for a reader that receives into it
    /// directly and then calls ``didReceive(intoGatheringSpace:)`` with the count: this spares the
    /// bytes a copy from a read buffer. Nil when no long frame is being gathered; then bytes come
    /// in through `append(_:)`. The space is exactly the frame's missing bytes, so a read into it
    /// never takes the start of the next frame.
    ///
    /// The pointer outlives `withUnsafeMutableBytes`, which the standard library does not promise
    /// in general; here it holds until the decoder is next used. The array it points into is this
    /// decoder's alone (unique, so taking the pointer copies nothing), and its storage neither
    /// grows nor moves until the array is mutated again, which only
    /// ``didReceive(intoGatheringSpace:)``, `append(_:)` and ``nextFrame()`` do. A libuv reader
    /// takes the pointer in its allocation callback and writes through it in the `read` that
    /// follows at once, before its read callback reports the count; `make test`'s memcheck runs
    /// long frames through that path under AddressSanitizer.
    package mutating func gatheringSpace() -> UnsafeMutableRawBufferPointer? {
        guard !gathered.isEmpty, gatheredCount < gathered.count else { return nil }
        return gathered.withUnsafeMutableBytes { UnsafeMutableRawBufferPointer(rebasing: $0[gatheredCount...]) }
    }

    /// Counts `count` bytes a reader received into ``gatheringSpace()``.
    package mutating func didReceive(intoGatheringSpace count: Int) {
        precondition(count >= 0 && count <= gathered.count - gatheredCount, "received more than the gathering space")
        gatheredCount += count
    }

    /// Appends received bytes.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        guard gathered.isEmpty else {
            Array(bytes).withUnsafeBytes { append($0) }
            return
        }
        compactIfWorthIt()
        buffer.append(contentsOf: bytes)
    }

    /// Returns the next complete payload, `nil` when more bytes are needed,
    /// or throws when the stream is invalid (and on every call after that).
    ///
    /// The payload is an array of its own: a copy out of the buffer, unless it was gathered
    /// (``nextFrameBytes()`` copies nothing).
    public mutating func nextFrame() throws(FrameError) -> [UInt8]? {
        guard let frame = try nextFrameBytes() else { return nil }
        if frame.index == 0, frame.end == frame.storage.count { return frame.storage }
        return Array(frame.storage[frame.index..<frame.end])
    }

    /// Returns the next complete payload in place, as a reader over the bytes that hold it, `nil`
    /// when more bytes are needed, or throws when the stream is invalid (and on every call after
    /// that). Nothing is copied: the reader shares the decoder's buffer (or, for a gathered long
    /// frame, is the array it was gathered in).
    ///
    /// Borrowing rules: the reader is a value, safe to keep, but while it is kept the buffer has
    /// two owners, and the next `append(_:)` copies the buffer rather than write into it (one
    /// allocation, the size of what is buffered). Read it and let it go before the decoder is
    /// given more bytes, as a frame handler does; to keep a payload past that, copy it
    /// (`Array(reader.storage[reader.index..<reader.end])`, as ``nextFrame()`` does).
    public mutating func nextFrameBytes() throws(FrameError) -> ByteReader? {
        if let failure { throw failure }
        if !gathered.isEmpty {
            guard gatheredCount == gathered.count else { return nil }
            gatheredCount = 0
            var payload: [UInt8] = []
            swap(&payload, &gathered)
            return ByteReader(payload)
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
        readIndex = start + Int(length)
        let frame = ByteReader(buffer, start: start, end: readIndex)
        // Emptied when the next bytes come (`append`), not now: the reader shares the buffer, and
        // emptying it while shared would allocate a new one. A large one is let go at once (the
        // reader keeps it until it is done), as `emptyBuffer()` would.
        if readIndex == buffer.count, buffer.capacity > 1 << 16 {
            buffer = []
            readIndex = 0
        }
        return frame
    }

    /// Moves the start of a long frame, the last thing buffered, into an array allocated for all of it.
    ///
    /// The array is made at its full count without writing its bytes (zeroing them would touch
    /// every page of up to the frame limit before a byte arrives, and cost a pass as long as the
    /// copy a direct read saves). `UInt8` is a trivial type, so bytes not yet written hold no
    /// object that could be broken; they are written by the reads before anything reads them
    /// (``gathered``), and a frame that never completes is dropped unread.
    private mutating func gather(length: Int) {
        let start = buffer[(readIndex + FrameEncoder.headerSize)...]
        gathered = [UInt8](unsafeUninitializedCapacity: length) { storage, count in
            _ = storage.initialize(fromContentsOf: start)
            count = length
        }
        gatheredCount = start.count
        emptyBuffer()
    }

    /// Empties the buffer once everything in it was taken, keeping its memory when it is small
    /// (the next frames reuse it) and handing it back when a burst made it large.
    private mutating func emptyBuffer() {
        buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16)
        readIndex = 0
    }

    /// Makes room before bytes are appended: empties the buffer once every frame in it was taken
    /// (``nextFrameBytes()`` leaves that to here), or drops the taken half of it.
    private mutating func compactIfWorthIt() {
        if readIndex > 0, readIndex == buffer.count {
            emptyBuffer()
        } else if readIndex > 0 && readIndex >= buffer.count / 2 {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }
}
