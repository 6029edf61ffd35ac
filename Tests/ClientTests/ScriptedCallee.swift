import Foundation
import Glibc
import Synchronization
import VerticalsTestSupport
import VerticalsTesting
import VerticalsWire

/// A callee that speaks raw frames: a Unix listener at `path` that answers each request it reads
/// with the frame `answer` makes of it (a reply a real vertical would never send: frame-sized, an
/// undeclared code), one connection at a time, on a thread of its own until ``stop()``.
final class ScriptedCallee: Sendable {
    let listener: Int32
    let answer: @Sendable (Message) -> [UInt8]
    /// The connections accepted so far.
    let connections = Atomic<Int>(0)

    init(at path: String, answer: @escaping @Sendable (Message) -> [UInt8]) throws {
        self.answer = answer
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let bound = withUnixSocketAddress(path) { bind(listener, $0, $1) }
        guard bound == 0, listen(listener, 16) == 0 else { throw RawSocketError("cannot listen at \(path)") }
        Thread { [self] in
            while true {
                let descriptor = accept(listener, nil, nil)
                guard descriptor >= 0 else {
                    // Closed here, not in `stop()`: closed there while this thread still
                    // accepts on it, the number could be reused by another test's listener,
                    // whose callers this thread would then answer.
                    close(listener)
                    return
                }
                connections.add(1, ordering: .relaxed)
                let client = RawClient(descriptor: descriptor)
                serving: while true {
                    switch client.receive() {
                    case .message(let request) where request.envelope.kind == .request:
                        guard (try? client.send(answer(request))) != nil else { break serving }
                    case .message, .timedOut: continue
                    case .closed: break serving
                    }
                }
            }
        }.start()
    }

    /// Stops accepting: the thread's `accept` fails, and it closes the listener and ends, once
    /// its connection closes.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    /// An error frame answering `request` with `error`.
    static func error(_ error: ServiceError, to request: Message) -> [UInt8] {
        Message.frame(Envelope(kind: .error, correlationID: request.envelope.correlationID), body: error)
    }

    /// A response frame answering `request` with `body`.
    static func response(_ body: some WireMessage, to request: Message) -> [UInt8] {
        Message.frame(Envelope(kind: .response, correlationID: request.envelope.correlationID), body: body)
    }
}
