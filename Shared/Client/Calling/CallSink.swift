import VerticalsContract
import VerticalsWire

/// How a waiting call's caller is resumed: its continuation, and what the callee's answer is made
/// into before it resumes. A ``PendingCall`` carries one; it is resumed exactly once, on the loop
/// (see ``ServiceClient/send(service:operation:declaring:kind:timeout:traceparent:onEvent:frame:sink:)``).
///
/// A sink is a continuation and at most a word beside it, so that it sits in an existential's
/// inline buffer: a call's record allocates nothing.
protocol CallSink: Sendable {
    /// Resumes the caller with the callee's answer to `operation` (its full name), `message`.
    /// The message lies in the connection's read buffer, valid only during this call: what the
    /// caller resumes with is decoded from it, or a copy.
    func answered(_ message: Message, to operation: String)
    /// Resumes the caller with `error`.
    func failed(_ error: ServiceError)
}

/// What a call's caller resumes with, as a traced call's span measures it.
protocol CallAnswer: Sendable {
    /// The answer's frame when it was kept as a message of its own: always for a traced call (see
    /// ``OutputSink``), whose span measures it.
    var keptMessage: Message? { get }
}

extension Message: CallAnswer {
    var keptMessage: Message? { self }
}

/// Resumes its caller with the answer's frame, copied out of the read buffer: for calls that
/// want the frame itself (a raw call, a ping, a stream's end).
struct MessageSink: CallSink {
    let continuation: UnsafeContinuation<Result<Message, ServiceError>, Never>

    func answered(_ message: Message, to _: String) {
        continuation.resume(returning: .success(message.detached()))
    }

    func failed(_ error: ServiceError) {
        continuation.resume(returning: .failure(error))
    }
}

/// What a typed call's caller resumes with.
enum OutputAnswer<Output: WireMessage>: CallAnswer {
    /// The Output, decoded from the read buffer on the loop: no copy of the frame is made.
    case output(Output)
    /// The answer's frame, copied out of the read buffer, to decode where it is awaited: a body
    /// over ``ServiceClient/offLoopAnswerBytes`` (its decode is not the loop's to pay), or any
    /// answer to a traced call (its span measures the frame).
    case message(Message)

    var keptMessage: Message? {
        if case .message(let message) = self { message } else { nil }
    }
}

/// Resumes a typed call's caller with its Output, decoded in place from the read buffer in the
/// read callback, before the buffer is read into again.
///
/// Why this is safe, and allocates nothing:
/// - The in-place message is read only inside ``answered(_:to:)``, which the channel calls from
///   the connection's frame handler, on the loop, while the frame lies in the read buffer;
///   nothing of it escapes: the Output owns its storage (a decoded array or string is its own),
///   and a message kept for later is ``Message/detached()`` first.
/// - The caller's result is not written through a pointer (an async function's local has no
///   address that outlives a closure's call): the Output is handed to the continuation, which
///   the runtime stores in the awaiting frame as it resumes. There is no slot
///   that a late write could outlive: a cancel, a deadline, a connection's close or the client's
///   each first remove the call from the channel's `pending` and resume only what they removed,
///   and a resend on a new connection keeps the record without resuming it, so a call is resumed
///   once, by whichever comes first, as it was when it resumed with a message.
/// - A body that does not decode resumes the caller with the same `protocolError` it got when it
///   decoded the copy itself (``ServiceClient/decode(_:as:operation:)``).
/// - The continuation and the limit fit an existential's inline buffer, and `Output`'s decoder is
///   reached through the type, not a closure: the record and its sink allocate nothing.
struct OutputSink<Output: WireMessage>: CallSink {
    let continuation: UnsafeContinuation<Result<OutputAnswer<Output>, ServiceError>, Never>
    /// The largest body decoded in place; a larger one is copied out for its caller to decode
    /// (-1 for a traced call: every answer is copied, for its span).
    let inPlaceBodyLimit: Int

    func answered(_ message: Message, to operation: String) {
        guard message.bodyCount <= inPlaceBodyLimit else {
            continuation.resume(returning: .success(.message(message.detached())))
            return
        }
        continuation.resume(
            returning: Result { () throws(ServiceError) in
                .output(try ServiceClient.decode(message, as: Output.self, operation: operation))
            })
    }

    func failed(_ error: ServiceError) {
        continuation.resume(returning: .failure(error))
    }
}
