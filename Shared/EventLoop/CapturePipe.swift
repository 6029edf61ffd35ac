import CLibUV

/// The parent's end of a child's stdout or stderr pipe (`UV_CREATE_PIPE`): reads chunks until
/// end of file, then closes itself.
final class CapturePipe {
    let loop: EventLoop
    let pipe: UnsafeMutablePointer<uv_pipe_t> // freed in the close callback
    var onData: (([UInt8]) -> Void)?
    var onEnd: (() -> Void)?
    var isClosing = false

    init(loop: EventLoop) {
        self.loop = loop
        pipe = .allocate(capacity: 1)
        uv_pipe_init(loop.loop, pipe, 0)
        HandleData.retain(self, into: pipe.asHandle)
    }

    func startReading() {
        let status = uv_read_start(pipe.asStream, CapturePipe.onAllocate, CapturePipe.onRead)
        if status != 0 { close() }
    }

    func close() {
        guard !isClosing else { return }
        isClosing = true
        uv_close(pipe.asHandle, CapturePipe.onClosed)
    }

    private static let onAllocate: uv_alloc_cb = { handle, suggested, buffer in
        let capture = HandleData.owner(of: handle, as: CapturePipe.self)
        buffer!.pointee = capture.loop.readBuffer(size: suggested)
    }

    private static let onRead: uv_read_cb = { stream, count, buffer in
        let capture = HandleData.owner(of: stream?.asHandle, as: CapturePipe.self)
        if count > 0 {
            capture.onData?(Array(UnsafeRawBufferPointer(start: buffer!.pointee.base, count: count)))
        } else if count < 0 {
            capture.close() // end of file, or the pipe broke
        }
    }

    private static let onClosed: uv_close_cb = { handle in
        let capture = HandleData.releaseOwner(of: handle, as: CapturePipe.self)
        capture.pipe.deallocate()
        let onEnd = capture.onEnd
        capture.onData = nil
        capture.onEnd = nil
        onEnd?()
    }
}

extension CapturePipe: ClosedAtShutdown {}
