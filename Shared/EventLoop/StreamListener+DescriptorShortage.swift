import Glibc

/// An accept that fails for want of a descriptor (`EMFILE`, `ENFILE`) is said, not waited out.
///
/// libuv keeps a spare descriptor for this (its "EMFILE trick"): when `accept(2)` fails so, it
/// closes the spare, accepts the waiting peers and closes them at once, and takes the spare
/// back, so the peers are told (their connection closes) instead of waiting in the backlog, and
/// the listener keeps listening. Each such failure reaches ``StreamListener/onAcceptError`` and
/// is counted (``StreamListener/descriptorShortages``); a listener with no handler writes a
/// line to standard error instead, at most one a second, with how many went unsaid since.
extension StreamListener {
    /// Accepts that failed for want of a descriptor since the listener was made.
    public var descriptorShortages: Int {
        loop.preconditionInEventLoop()
        return shortages.count
    }

    /// Accepting a peer failed with libuv's `status`: counted, then told.
    func acceptFailed(_ status: Int32) {
        let error = EventLoopError.uv("accept", status)
        if error.isDescriptorShortage {
            shortages.count += 1
            if acceptErrorHandler == nil { sayShortage(error) }
        }
        acceptErrorHandler?(error)
    }

    private func sayShortage(_ error: EventLoopError) {
        let now = ContinuousClock.now
        if let last = shortages.lastSaid, now - last < .seconds(1) {
            shortages.unsaid += 1
            return
        }
        let since = shortages.unsaid > 0 ? " (and \(shortages.unsaid) more since the last such line)" : ""
        shortages.lastSaid = now
        shortages.unsaid = 0
        let place = path.map { " on \($0)" } ?? ""
        let line =
            "a listener\(place) could not accept a peer for want of a descriptor (\(error))\(since): "
            + "the peer was closed; raise the descriptor limit (ulimit -n, limits.open_files) or hold fewer\n"
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
