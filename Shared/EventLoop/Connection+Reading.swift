import CLibUV
import VerticalsWire

extension Connection {
    /// Starts delivering frames to ``onFrame``. Call once the handlers are set.
    /// Idempotent; ignored once closing or flushing.
    public func startReading() {
        loop.preconditionInEventLoop()
        // Delivers the frames that arrived with the end of a TLS handshake, before anyone wanted them.
        perform(machine.startReading())
    }

    /// Bytes received but not yet delivered as a frame: a frame still arriving, or whole frames
    /// held back while reading is paused. A host uses it to time out a client that starts a
    /// frame and never finishes it.
    public var bufferedInboundByteCount: Int {
        loop.preconditionInEventLoop()
        return decoder.bufferedByteCount
    }

    /// Decodes and delivers buffered frames until the buffer holds no whole frame, or the
    /// connection stops wanting them (closed from a handler, paused, framing broken).
    func deliverFrames() {
        guard !isDelivering, machine.wantsFrames else { return }
        isDelivering = true
        defer { isDelivering = false }
        if let frameBytesHandler {
            while let frame = nextBufferedFrameBytes() { frameBytesHandler(frame) }
            return
        }
        while let payload = nextBufferedFrame() {
            frameHandler?(payload)
        }
    }

    /// Takes the next whole frame already received, for a frame handler that serves the frames
    /// of one read together (a host runs every request of a read in one task while none
    /// suspends). Nil when no whole frame is buffered, or the connection stops wanting frames:
    /// closed, paused by backpressure, or framing broken (reported as `deliverFrames()` does).
    /// On the loop thread only, from a frame handler or a task that runs inline in one.
    public func nextBufferedFrame() -> [UInt8]? {
        guard let frame = nextBufferedFrameBytes() else { return nil }
        return frame.remainingBytes()
    }

    /// Takes the next whole frame already received, in place: as ``nextBufferedFrame()``, but the
    /// payload is read where it was received, with no copy (see ``onFrameBytes`` for what may
    /// outlive the handler).
    public func nextBufferedFrameBytes() -> ByteReader? {
        guard machine.deliversFrames else { return nil }
        do {
            return try decoder.nextFrameBytes()
        } catch {
            perform(machine.framingFailed())
            if let frameErrorHandler {
                frameErrorHandler(error)
            } else {
                closeAfterFlush()
            }
            return nil
        }
    }

    /// Reads into the rest of a long frame being gathered when there is one (on a plain stream:
    /// TLS's bytes must be decrypted first), so its bytes skip the loop's read buffer and the copy
    /// out of it; otherwise into the loop's read buffer. `onRead` tells the two apart by address.
    static let onAllocate: uv_alloc_cb = { handle, _, buffer in
        let connection = HandleData.owner(of: handle, as: Connection.self)
        if connection.tls == nil, connection.pendingTLS == nil, let space = connection.decoder.gatheringSpace() {
            buffer!.pointee = uv_buf_init(
                space.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(space.count))
        } else {
            buffer!.pointee = connection.loop.readBuffer(size: connection.options.readBufferSize)
        }
    }

    static let onRead: uv_read_cb = { stream, count, buffer in
        let connection = HandleData.owner(of: stream?.asHandle, as: Connection.self)
        if count > 0, connection.tls != nil || connection.pendingTLS != nil {
            connection.receiveTLS(UnsafeRawBufferPointer(start: buffer!.pointee.base, count: count))
        } else if count > 0, UnsafeMutableRawPointer(buffer!.pointee.base) != connection.loop.readBuffer {
            // Part of a long frame: noted here, on its reads, rather than on every frame.
            connection.loop.movedLongFrame()
            connection.decoder.didReceive(intoGatheringSpace: count)
            connection.deliverFrames()
        } else if count > 0 {
            connection.decoder.append(UnsafeRawBufferPointer(start: buffer!.pointee.base, count: count))
            connection.deliverFrames()
        } else if count == Int(UV_EOF.rawValue) {
            // The peer finished sending, but may still read (a half-close): flush what is queued.
            connection.perform(connection.machine.endOfStream())
        } else if count < 0 {
            connection.beginClose(error: .uv("read", Int32(count)))
        }
    }
}
