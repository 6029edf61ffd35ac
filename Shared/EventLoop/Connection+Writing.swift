import CLibUV
import VerticalsWire

/// One queued write: the bytes the kernel did not take at once, and its `uv_write_t`. Retained
/// into the request's `data` until the write callback.
final class PendingWrite {
    let request = UnsafeMutablePointer<uv_write_t>.allocate(capacity: 1)
    /// The frame (or frames) the write came from. Held, never copied: libuv writes from
    /// ``rest``, which points into its elements.
    private let frame: [UInt8]
    /// The part of ``frame`` the kernel has not taken.
    let rest: UnsafeRawBufferPointer
    let connection: Connection
    let completion: ((EventLoopError?) -> Void)?

    /// Holds `frame` from byte `offset` on for libuv to write.
    ///
    /// `rest` outlives the `withUnsafeBytes` that made it, which the standard library does not
    /// promise in general. It holds here: an array's elements live in one heap object that never
    /// moves (Swift does not relocate objects, and on Linux every array is native and contiguous),
    /// `frame` is a `let` that keeps that object alive until this write is freed, and nothing can
    /// mutate it, so it is never reallocated or copied on write.
    init(holding frame: [UInt8], from offset: Int, connection: Connection, completion: ((EventLoopError?) -> Void)?) {
        self.frame = frame
        rest = frame.withUnsafeBytes { UnsafeRawBufferPointer(rebasing: $0[offset...]) }
        self.connection = connection
        self.completion = completion
    }

    deinit {
        request.deallocate()
    }
}

extension Connection {
    /// Above this many corked bytes a write goes out at once instead of at the end of the turn:
    /// about 20 small answers, so a peer starts on the first ones while the rest are computed
    /// (1 conn × 64 in flight across vCPUs: ~57k req/s with 64 KiB, ~110k with 1–2 KiB).
    static let corkLimit = 2 * 1024
    /// The most a connection's cork keeps between turns: a frame written in place that was longer
    /// than expected grows it, and it is let go rather than held for the connection's life.
    static let keptCorkCapacity = 4 * corkLimit

    /// Sends `bytes` — one whole frame, length prefix included (see Wire's `FrameEncoder`).
    ///
    /// Frames written during one loop turn are sent together at its end (after the I/O
    /// callbacks and the jobs they resumed): one `uv_try_write` for all the answers a burst of
    /// requests produced, instead of one syscall each. The kernel gets them in the same turn,
    /// so a lone request/response waits for nothing. A frame of 2 KiB or more is not corked: it
    /// goes at once, after what the turn corked before it. What the kernel does not take is
    /// queued in libuv, which writes it from `bytes` itself (held, not copied). `completion`
    /// runs later on the loop thread, never inside this call: nil
    /// once the kernel took every byte, ``EventLoopError/closed`` if the connection closed first
    /// (or was already closing, or ``closeAfterFlush()`` was called), else the write error
    /// (which also closes the connection). Bytes waiting for the end of the turn count in
    /// ``queuedByteCount`` (and so in backpressure).
    public func write(_ bytes: [UInt8], completion: ((EventLoopError?) -> Void)? = nil) {
        loop.preconditionInEventLoop()
        guard machine.acceptsWrites else {
            complete(completion, .closed)
            return
        }
        if corked.isEmpty && machine.pendingWrites > 0 {
            // libuv's queue is not empty: it keeps the order, and the kernel is not taking more now.
            if bytes.count >= Connection.corkLimit { notingLongFrame(bytes) }
            send(bytes, completion: completion)
            return
        }
        if bytes.count >= Connection.corkLimit, machine.isConnected {
            // A frame this long fills a write on its own: sent after what this turn corked,
            // from its own bytes rather than copied into the cork.
            notingLongFrame(bytes)
            flushCorked()
            send(bytes, completion: completion)
            return
        }
        corked.append(contentsOf: bytes)
        if let completion { corkedCompletions.append(completion) }
        perform(machine.queued(bytes.count))
        if corked.count >= Connection.corkLimit {
            flushCorked()
        } else if !isFlushScheduled {
            isFlushScheduled = true
            loop.flushAtEndOfTurn(self)
        }
    }

    /// Writes the frame `encode` appends to the writer it is given, and returns its length.
    ///
    /// A frame expected to be short (`expectedBytes` under the cork's limit) is written in
    /// place: straight into the bytes this turn corks, so it costs no array of its own, and it
    /// goes out as ``write(_:completion:)``'s frames do, at the end of the turn. Otherwise, or
    /// when the connection does not cork now, it is built in an array of its own and written.
    /// `encode` must append one whole frame and must not use this connection.
    ///
    /// How this fits the cork and `uv_write`, whose buffers must stay put until its callback:
    /// `encode` writes at the end of the corked bytes, which no write has been handed yet (they
    /// are taken out of the connection while it runs, so nothing else reaches them), and the length
    /// prefix is patched there too, before anything is sent. At the end of the turn (or at once
    /// past 2 KiB) the whole cork is moved, not copied, into the write: what the kernel
    /// does not take at once is queued in libuv from that array, which the queued write holds,
    /// unchanged, until its callback. The cork then takes the buffer back emptied; when a queued
    /// write still holds it, emptying it makes a new one (an array is copied on write, never
    /// written under another holder), so the next frame written in place never goes into bytes
    /// libuv may still be reading. While libuv's queue is not empty, frames are not corked (their order is
    /// libuv's): one is then built in an array of its own and queued behind the others.
    @discardableResult
    public func writeFrame(expectedBytes: Int, _ encode: (inout ByteWriter) -> Void) -> Int {
        loop.preconditionInEventLoop()
        guard expectedBytes < Connection.corkLimit, machine.acceptsWrites, machine.isConnected,
            !(corked.isEmpty && machine.pendingWrites > 0)
        else {
            var writer = ByteWriter(capacity: expectedBytes)
            encode(&writer)
            write(writer.bytes)
            return writer.count
        }
        // Swapped out while `encode` runs, so nothing else can reach the bytes it grows.
        var writer = ByteWriter(capacity: 0)
        swap(&writer.bytes, &corked)
        let start = writer.count
        if writer.bytes.capacity - start < expectedBytes { writer.bytes.reserveCapacity(start + expectedBytes) }
        encode(&writer)
        swap(&writer.bytes, &corked)
        let length = corked.count - start
        if length > FrameEncoder.headerSize + FrameDecoder.gatherThreshold { loop.movedLongFrame() }
        perform(machine.queued(length))
        if corked.count >= Connection.corkLimit {
            flushCorked()
        } else if !isFlushScheduled {
            isFlushScheduled = true
            loop.flushAtEndOfTurn(self)
        }
        return length
    }

    /// Tells the loop when `bytes`, a frame too long for the cork, is a long frame (see
    /// `EventLoop+MemoryRelease.swift`). Out of line, so the short frames' path stays as it was.
    @inline(never)
    private func notingLongFrame(_ bytes: [UInt8]) {
        if bytes.count > FrameEncoder.headerSize + FrameDecoder.gatherThreshold { loop.movedLongFrame() }
    }

    /// The end-of-turn flush that ``write(_:completion:)`` scheduled.
    func endOfTurnFlush() {
        isFlushScheduled = false
        flushCorked()
    }

    /// Sends what this turn's writes corked, if the connection still sends.
    func flushCorked() {
        guard !corked.isEmpty, machine.isConnected else { return }
        var bytes: [UInt8] = []
        swap(&bytes, &corked)
        let completions = corkedCompletions
        corkedCompletions = []
        machine.handedOver(bytes.count) // `send` counts what the kernel leaves
        send(
            bytes,
            completion: completions.isEmpty ? nil : { error in for completion in completions { completion(error) } })
        if corked.isEmpty, bytes.capacity <= Connection.keptCorkCapacity {
            bytes.removeAll(keepingCapacity: true)
            swap(&bytes, &corked) // the next turn reuses the buffer
        }
        perform(machine.drained(0)) // resumes reading below the low-water mark; closes a flushing connection that is done
    }

    /// Forgets corked bytes when the connection closes; their completions get ``EventLoopError/closed``.
    func dropCorked() {
        machine.dropped(corked.count)
        corked = []
        for completion in corkedCompletions { complete(completion, .closed) }
        corkedCompletions = []
    }

    /// Sends `bytes` as they are, or sealed into TLS records on a TLS connection.
    private func send(_ bytes: [UInt8], completion: ((EventLoopError?) -> Void)?) {
        guard let tls else {
            if pendingTLS != nil { // nothing leaves a TLS connection in the clear, even before its session exists
                let failure = EventLoopError.tls("a write before the TLS handshake began")
                beginClose(error: failure)
                complete(completion, failure)
                return
            }
            sendWire(bytes, completion: completion)
            return
        }
        do {
            try bytes.withUnsafeBytes { raw in try tls.seal(raw) }
        } catch {
            let failure = EventLoopError.tls("\(error)")
            beginClose(error: failure)
            complete(completion, failure)
            return
        }
        sendWire(tls.takeOutput(), completion: completion)
    }

    /// Writes at once what the kernel takes (when nothing is queued) and queues the rest, copied.
    func sendWire(_ bytes: [UInt8], completion: ((EventLoopError?) -> Void)?) {
        bytes.withUnsafeBytes { raw in
            var written = 0
            if machine.pendingWrites == 0, raw.count > 0 {
                var buffer = uv_buf_init(
                    UnsafeMutableRawPointer(mutating: raw.baseAddress!).assumingMemoryBound(to: CChar.self),
                    UInt32(raw.count))
                let status = uv_try_write(stream, &buffer, 1)
                if status >= 0 {
                    written = Int(status)
                } else if status != UV_EAGAIN.rawValue {
                    let error = EventLoopError.uv("write", status)
                    beginClose(error: error)
                    complete(completion, error)
                    return
                }
            }
            if written == raw.count {
                complete(completion, nil)
            } else {
                enqueueWrite(bytes, from: written, completion: completion)
            }
        }
    }

    private func enqueueWrite(_ bytes: [UInt8], from offset: Int, completion: ((EventLoopError?) -> Void)?) {
        let pending = PendingWrite(holding: bytes, from: offset, connection: self, completion: completion)
        let rest = pending.rest
        uv_req_set_data(pending.request.asRequest, Unmanaged.passRetained(pending).toOpaque())
        var buffer = uv_buf_init(
            UnsafeMutableRawPointer(mutating: rest.baseAddress!).assumingMemoryBound(to: CChar.self), UInt32(rest.count)
        )
        let status = uv_write(pending.request, stream, &buffer, 1, Connection.onWritten)
        guard status == 0 else {
            Unmanaged.passUnretained(pending).release() // no callback will come
            let error = EventLoopError.uv("write", status)
            beginClose(error: error)
            complete(completion, error)
            return
        }
        perform(machine.writeQueued(rest.count))
    }

    func complete(_ completion: ((EventLoopError?) -> Void)?, _ error: EventLoopError?) {
        guard let completion else { return }
        loop.deferOnLoop { completion(error) }
    }

    private func didFinish(_ write: PendingWrite, status: Int32) {
        let error: EventLoopError? = status == 0 ? nil : .uv("write", status) // ECANCELED maps to .closed
        if let error, error != .closed {
            beginClose(error: error)
        }
        write.completion?(error)
        perform(machine.writeFinished(write.rest.count))
    }

    static let onWritten: uv_write_cb = { request, status in
        // Balances the retain in enqueueWrite; the buffers are freed when `pending` goes away.
        let pending = Unmanaged<PendingWrite>.fromOpaque(uv_req_get_data(request!.asRequest)!).takeRetainedValue()
        pending.connection.didFinish(pending, status: status)
    }
}
