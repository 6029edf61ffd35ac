import Testing
import VerticalsTesting
import VerticalsSharedTesting

@testable import VerticalsServiceKit

/// A host's table of open connections (``ServiceHost/connections``): a connection that closes,
/// first, middle or last, leaves the table, the last one takes its slot, and the others are
/// still served.
@Suite(.timeLimit(.minutes(1)))
struct ConnectionTableTests {
    /// The host's connections as (their slot in the table, each one's own idea of it), read on its loop.
    static func slots(_ served: HostedRouter) async throws -> [Int] {
        let host = served.host
        return try await served.loop.submit {
            host.connections.enumerated().map { index, server in server.slot == index ? index : -1 }
        }
    }

    @Test func closingConnections_inAnyOrder_leavesEachOtherConnectionInItsOwnSlot() async throws {
        let served = try await HostedRouter(SyncRouteTests.router(), loopName: "connection-table")
        let path = served.host.configuration.socketPath
        var clients = try (0..<4).map { _ in try RawClient(path: path) }
        for client in clients { #expect(client.pingAnswered()) }
        #expect(try await Self.slots(served) == [0, 1, 2, 3])
        // The first, then what is now in the middle, then the last: the table shrinks each time.
        for (index, left) in [(0, 3), (1, 2), (1, 1)] {
            clients.remove(at: index) // its deinit closes the socket
            var slots: [Int] = []
            for _ in 0..<500 {
                slots = try await Self.slots(served)
                if slots.count == left { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(slots == Array(0..<left), "after closing one, \(left) should be left in slots 0..<\(left)")
            for client in clients { #expect(client.pingAnswered()) }
        }
        clients.removeAll()
        await served.close()
    }
}
