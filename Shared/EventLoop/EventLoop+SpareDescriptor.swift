import CLibUV

/// Each loop takes libuv's spare descriptor when it is made, not when its first peer comes.
///
/// libuv keeps one descriptor per loop in reserve for accepting past `EMFILE` (its "EMFILE
/// trick", ``StreamListener/descriptorShortages``): `/dev/null`, opened with the loop's first
/// stream handle. A loop that had served nothing yet then opened it for the first peer it was
/// handed, and that peer appeared to hold a descriptor more than its own: silent TLS strangers
/// spread over a daemon's loops held the cap per address plus one for each loop they woke. Taken
/// at the loop's start, it is the loop's from the first, and a peer holds exactly its own socket.
extension EventLoop {
    /// Makes libuv open the spare descriptor of `loop` now: a stream handle made, which does it,
    /// and closed at once (freed in the loop's first turn, or its last run on a failed start).
    static func reserveSpareDescriptor(_ loop: UnsafeMutablePointer<uv_loop_t>) {
        let pipe = UnsafeMutablePointer<uv_pipe_t>.allocate(capacity: 1)
        guard uv_pipe_init(loop, pipe, 0) == 0 else {
            pipe.deallocate()
            return
        }
        uv_close(pipe.asHandle) { handle in
            UnsafeMutableRawPointer(handle)?.deallocate()
        }
    }
}
