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

    /// The bytes received: `readIndex..<writeIndex` are not yet taken, and the ones past
    /// `writeIndex` are room for the next (the array's count is its room, not what it holds, so
    /// emptying it sets two indices and writes nothing). The room past `writeIndex` may hold bytes
    /// never written (``makeRoom(for:)``); nothing reads past `writeIndex`.
    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var writeIndex = 0
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

    /// The room the buffer for short frames holds, in bytes: what the decoder keeps between frames.
    package var bufferCapacity: Int { buffer.count }

    /// Bytes received but not yet returned as a frame.
    public var bufferedByteCount: Int {
        writeIndex - readIndex + (gathered.isEmpty ? 0 : FrameEncoder.headerSize + gatheredCount)
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
        // A length's first two bytes are zero for every frame of 64 KiB or less: one test
        // before anything else keeps this off a short frame's path.
        if rest.count >= FrameEncoder.headerSize, rest[0] | rest[1] != 0, gatherIfALongFrameOpens(rest) { return }
        if buffer.count - writeIndex < rest.count { makeRoom(for: rest.count) }
        let at = writeIndex
        // Writes in place while the buffer is this decoder's alone; a reader still kept makes
        // this copy the buffer first (``nextFrameBytes()``).
        buffer.withUnsafeMutableBytes { room in
            UnsafeMutableRawBufferPointer(rebasing: room[at..<at + rest.count]).copyMemory(from: rest)
        }
        writeIndex += rest.count
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
        let appended: Void? = bytes.withContiguousStorageIfAvailable { append(UnsafeRawBufferPointer($0)) }
        if appended == nil { Array(bytes).withUnsafeBytes { append($0) } }
    }

    /// Returns the next complete payload, `nil` when more bytes are needed,
    /// or throws when the stream is invalid (and on every call after that).
    ///
    /// The payload is an array of its own: a copy out of the buffer, unless it was gathered
    /// (``nextFrameBytes()`` copies nothing).
    public mutating func nextFrame() throws(FrameError) -> [UInt8]? {
        guard let frame = try nextFrameBytes() else { return nil }
        return frame.remainingBytes()
    }

    /// Returns the next complete payload in place, as a reader over the bytes that hold it, `nil`
    /// when more bytes are needed, or throws when the stream is invalid (and on every call after
    /// that). Nothing is copied: the reader shares the decoder's buffer (or, for a gathered long
    /// frame, is the array it was gathered in).
    ///
    /// Borrowing rules: the reader is a value, safe to keep, but while it is kept the buffer has
    /// two owners, and the next `append(_:)` copies the buffer rather than write into it (one
    /// allocation, the size of the buffer). Read it and let it go before the decoder is given
    /// more bytes, as a frame handler does; to keep a payload past that, copy it
    /// (`reader.remainingBytes()`, as ``nextFrame()`` does).
    public mutating func nextFrameBytes() throws(FrameError) -> ByteReader? {
        if let failure { throw failure }
        if !gathered.isEmpty {
            guard gatheredCount == gathered.count else { return nil }
            gatheredCount = 0
            var payload: [UInt8] = []
            swap(&payload, &gathered)
            return ByteReader(payload)
        }
        let available = writeIndex - readIndex
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
        // Emptied at once: that writes nothing, so the reader, which shares the buffer, keeps
        // its bytes, and the next bytes are written over them only once it is let go.
        if readIndex == writeIndex { emptyBuffer() }
        return frame
    }

    /// Starts gathering the long frame whose header opens `bytes` (see ``gather(length:from:)``)
    /// when nothing else is buffered or gathered, they hold its header and not all of it, and its length is one
    /// the decoder accepts; whether it did. Any other case is left to the buffer.
    @inline(never)
    private mutating func gatherIfALongFrameOpens(_ bytes: UnsafeRawBufferPointer) -> Bool {
        // Not while a gathered frame waits to be taken: it comes first, and the buffer keeps what follows it.
        guard gathered.isEmpty, readIndex == writeIndex, failure == nil, bytes.count >= FrameEncoder.headerSize else {
            return false
        }
        let length = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard length > Self.gatherThreshold, length <= maxFrameSize, bytes.count - FrameEncoder.headerSize < length
        else { return false }
        gather(length: length, from: UnsafeRawBufferPointer(rebasing: bytes[FrameEncoder.headerSize...]))
        return true
    }

    /// Moves the start of a long frame, the last thing buffered, into an array allocated for all of it.
    private mutating func gather(length: Int) {
        let start = readIndex + FrameEncoder.headerSize
        let end = writeIndex
        gathered = buffer.withUnsafeBytes {
            Self.longFrame(length, from: UnsafeRawBufferPointer(rebasing: $0[start..<end]))
        }
        gatheredCount = end - start
        emptyBuffer()
    }

    /// Starts gathering a long frame of `length` bytes whose first bytes are `start`, in an array
    /// allocated for all of it, and empties the buffer, which held nothing else.
    ///
    /// A long frame whose header opens a chunk appended while nothing else is buffered (every
    /// frame read over TLS, whose plaintext comes a record at a time; a read that starts with
    /// one) goes here at once, not through the buffer, which would otherwise grow to the read's
    /// size and stay that size for the connection's life: it holds only what short frames need.
    ///
    /// The array is made at its full count without writing its bytes (zeroing them would touch
    /// every page of up to the frame limit before a byte arrives, and cost a pass as long as the
    /// copy a direct read saves). `UInt8` is a trivial type, so bytes not yet written hold no
    /// object that could be broken; they are written by the reads before anything reads them
    /// (``gathered``), and a frame that never completes is dropped unread.
    private mutating func gather(length: Int, from start: UnsafeRawBufferPointer) {
        gathered = Self.longFrame(length, from: start)
        gatheredCount = start.count
        emptyBuffer()
    }

    /// An array of `length` bytes that begins with `start`; the rest is written later (see above).
    private static func longFrame(_ length: Int, from start: UnsafeRawBufferPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: length) { storage, count in
            UnsafeMutableRawBufferPointer(storage).copyMemory(from: start)
            count = length
        }
    }

    /// Empties the buffer once everything in it was taken: two indices reset, its memory kept
    /// when it is small (the next frames reuse it) and handed back when a burst made it large (a
    /// reader handed out keeps it until it is let go).
    private mutating func emptyBuffer() {
        if buffer.count > 1 << 16 { buffer = [] }
        readIndex = 0
        writeIndex = 0
    }

    /// Makes room for `count` more bytes past those not yet taken: moves these to the front when
    /// that frees enough, else into a new array of twice the size, or as large as they need.
    ///
    /// The new array is made at its full count without writing its room, as ``gather(length:)``
    /// makes a long frame's, and for the same reason it is sound: `UInt8` is trivial, and bytes
    /// are written there before anything reads them (only `readIndex..<writeIndex` is read).
    private mutating func makeRoom(for count: Int) {
        let kept = writeIndex - readIndex
        let from = readIndex
        if kept + count <= buffer.count {
            buffer.withUnsafeMutableBytes { bytes in
                // Overlapping ranges: `copyMemory` is a `memmove`.
                bytes.baseAddress!.copyMemory(from: bytes.baseAddress! + from, byteCount: kept)
            }
        } else {
            let size = max(kept + count, 2 * buffer.count)
            buffer = buffer.withUnsafeBytes { old in
                [UInt8](unsafeUninitializedCapacity: size) { room, initialized in
                    UnsafeMutableRawBufferPointer(room).copyMemory(
                        from: UnsafeRawBufferPointer(rebasing: old[from..<from + kept]))
                    initialized = size
                }
            }
        }
        readIndex = 0
        writeIndex = kept
    }
}
