import Foundation
import Glibc
import Synchronization
import Testing
@testable import VerticalsClient
import VerticalsEventLoop
import VerticalsTestSupport
import VerticalsTesting
import VerticalsWire

/// A callee that closes every connection with `unread` = `all` (PROTOCOL.md § 11) is sent the
/// calls again a bounded number of times, not for as long as their deadlines allow.
struct HandoverBudgetTests {
    /// A Unix listener at `path` that reads one request on each connection, answers it with the
    /// handover error on id 0, and waits for the client to hang up; counts the connections.
    final class HandingBackCallee: Sendable {
        let listener: Int32
        let connections = Atomic<Int>(0)

        init(at path: String) throws {
            listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            let bound = withUnixSocketAddress(path) { bind(listener, $0, $1) }
            guard bound == 0, listen(listener, 16) == 0 else { throw RawSocketError("cannot listen at \(path)") }
        }

        /// Serves on a thread of its own until ``stop()``.
        func start() {
            Thread { [self] in
                while true {
                    let descriptor = accept(listener, nil, nil)
                    guard descriptor >= 0 else { return }
                    connections.add(1, ordering: .relaxed)
                    let client = RawClient(descriptor: descriptor)
                    guard case .message = client.receive() else { continue }
                    try? client.send(
                        Message.frame(
                            Envelope(kind: .error, correlationID: 0),
                            body: ServiceError(
                                .unavailable, "shutting down", details: [ServiceError.unreadDetail], retryable: true)))
                    _ = client.drainUntilClosed()
                }
            }.start()
        }

        /// Stops accepting: the thread's `accept` fails and it ends.
        func stop() {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
    }

    @Test func call_toACalleeThatHandsBackEveryConnection_failsUnavailableAfterTheBudget_notAtItsDeadline()
        async throws
    {
        let directory = TemporaryDirectory()
        let sockets = SocketDirectory(directory.path)
        let callee = try HandingBackCallee(at: sockets.socketPath(for: "echo"))
        callee.start()
        defer { callee.stop() }
        let error = try await withClient("handover-budget-test", sockets: sockets) { client in
            await #expect(throws: ServiceError.self) {
                try await client.call(TestEcho().echo, .init(text: "anyone?"), timeout: .seconds(60))
            }
        }
        #expect(error?.code == .unavailable, "\(String(describing: error))")
        #expect(error?.retryable == true)
        #expect(error?.details.contains(ErrorDetail("service", "echo")) == true)
        // The first connection, and one for each handover the budget allows.
        #expect(callee.connections.load(ordering: .relaxed) == PeerChannel.StateMachine.handoverBudget + 1)
    }
}
