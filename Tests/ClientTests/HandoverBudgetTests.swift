import Testing
@testable import VerticalsClient
import VerticalsEventLoop
import VerticalsTestSupport
import VerticalsTesting
import VerticalsWire

/// A callee that closes every connection with `unread` = `all` (PROTOCOL.md § 11) is sent the
/// calls again a bounded number of times, not for as long as their deadlines allow.
struct HandoverBudgetTests {
    /// What a callee that hands back every connection answers: the handover error on id 0.
    static func handBack(_ request: Message) -> [UInt8] {
        Message.frame(
            Envelope(kind: .error, correlationID: 0),
            body: ServiceError(.unavailable, "shutting down", details: [ServiceError.unreadDetail], retryable: true))
    }

    @Test func call_toACalleeThatHandsBackEveryConnection_failsUnavailableAfterTheBudget_notAtItsDeadline()
        async throws
    {
        let directory = TemporaryDirectory()
        let sockets = SocketDirectory(directory.path)
        let callee = try ScriptedCallee(at: sockets.socketPath(for: "echo"), answer: Self.handBack)
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
