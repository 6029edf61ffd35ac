import VerticalsWire

extension ServiceError {
    /// The most bytes of a callee's error message a caller keeps: longer is cut with a marker
    /// (``PeerText``), so a handler that passes a callee's error on answers within a stated size.
    package static let calleeMessageMaxBytes = 4096
    /// The most details of a callee's error a caller keeps, each key and value cut to
    /// `PeerText.findingMaxBytes`.
    package static let calleeMaxDetails = 16

    /// This error as a caller keeps it from a callee: its message cut to
    /// ``calleeMessageMaxBytes``, at most ``calleeMaxDetails`` details, each cut. Whatever the
    /// callee sent (a frame of text, invalid UTF-8 read as U+FFFD), the error served on from it
    /// stays a few KiB.
    package var fromCallee: ServiceError {
        ServiceError(
            code, PeerText(message, maxBytes: Self.calleeMessageMaxBytes).text,
            details: details.prefix(Self.calleeMaxDetails).map {
                ErrorDetail(PeerText($0.key).text, PeerText($0.value).text)
            }, retryable: retryable)
    }
}
