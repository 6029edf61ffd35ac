import VerticalsWire

/// A callee answers only the codes its contract declares.
///
/// **The rule: a code the operation does not declare is the callee's fault, not the caller's to
/// act on.** A caller's handler branches on the code (`notFound` → "no such clinic", `conflict` →
/// "taken"); a callee that answers one its contract does not declare for the operation (a newer
/// build's code, a bug, a compromised callee steering its callers) would steer that branch, and a
/// handler that passes the error on would carry it up the chain as if declared. So such an error
/// reaches the caller as `internal` (a bug in the callee, PROTOCOL.md § 9), not retryable, its
/// message saying which code came, the code itself in an ``undeclaredCodeKey`` detail. What the
/// operation declares, and the codes any call may get (``anyCallCodes``), pass as they came.
extension ServiceError {
    /// The codes any call may get, whatever its operation declares (PROTOCOL.md § 9): those the
    /// framework answers for every operation (`unavailable`, `deadlineExceeded`,
    /// `resourceExhausted`, `cancelled`, `unimplemented`, `protocolError`, `internal`; `invalidInput`
    /// for an Input that does not decode or breaks a bound; `permissionDenied` for a route refused).
    package static let anyCallCodes: ErrorCodeSet = [
        .unavailable, .deadlineExceeded, .resourceExhausted, .cancelled, .unimplemented, .protocolError, .internal,
        .invalidInput, .permissionDenied,
    ]
    /// The codes an error about the connection itself (correlation id 0) may carry (PROTOCOL.md § 9).
    package static let connectionCodes: ErrorCodeSet = [
        .protocolError, .deadlineExceeded, .resourceExhausted, .permissionDenied, .unavailable,
    ]
    /// The detail that keeps the code a callee answered with but did not declare.
    package static let undeclaredCodeKey = "undeclaredCode"

    /// This error, a callee's answer to `operation`, which declares `declared`: as it came when its
    /// code is one of `declared` or ``anyCallCodes``; else `internal`, the code sent kept in an
    /// ``undeclaredCodeKey`` detail (its other details after it, up to ``calleeMaxDetails`` in all).
    package func declared(_ declared: ErrorCodeSet, by operation: String) -> ServiceError {
        guard !Self.anyCallCodes.union(declared).contains(code) else { return self }
        return undeclared(
            "\(operation) answered with \(code.wireName), which its contract does not declare (a callee's fault)")
    }

    /// This error, a callee's error about the connection (correlation id 0): as it came when its
    /// code is one of ``connectionCodes``; else `internal`, as ``declared(_:by:)`` makes it.
    package func aboutTheConnection(of service: String) -> ServiceError {
        guard !Self.connectionCodes.contains(code) else { return self }
        return undeclared(
            "\(service) closed the connection with \(code.wireName), which no connection error carries (a callee's fault)"
        )
    }

    private func undeclared(_ why: String) -> ServiceError {
        ServiceError(
            .internal, PeerText("\(why): \(message)", maxBytes: Self.calleeMessageMaxBytes).text,
            details: [ErrorDetail(Self.undeclaredCodeKey, code.wireName)] + details.prefix(Self.calleeMaxDetails - 1),
            retryable: false)
    }
}
