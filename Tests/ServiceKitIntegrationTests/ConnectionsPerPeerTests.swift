import Glibc
import Testing
import VerticalsTesting
import VerticalsWire
import VerticalsSharedTesting
@testable import VerticalsServiceKit

/// One caller may hold ``ConnectionLimits/maxConnectionsPerPeer`` connections, so that it cannot
/// take all of a daemon's: past its cap it is refused `resourceExhausted` and closed, while
/// another caller still connects; the refusals are logged at most once a second.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct ConnectionsPerPeerTests {
    @Test func defaults_andTheEnvironment() {
        #expect(ConnectionLimits().maxConnectionsPerPeer == 128)
        #expect(ConnectionLimits().maxConnectionsPerPeer < ConnectionLimits().maxConnections)
        let set = ConnectionLimits.from(environment: ["VERTICALS_MAX_CONNECTIONS_PER_PEER": "7"])
        #expect(set.maxConnectionsPerPeer == 7)
        for text in ["0", "-3", "many"] {
            #expect(
                ConnectionLimits.from(environment: ["VERTICALS_MAX_CONNECTIONS_PER_PEER": text]).maxConnectionsPerPeer
                    == 128)
        }
    }

    @Test func census_countsEachCallerApart_andForgetsACallerWithNoneOpen() {
        let census = HostCensus()
        #expect(census.admit(caller: "uid 1000", limit: 2))
        #expect(census.admit(caller: "uid 1000", limit: 2))
        #expect(!census.admit(caller: "uid 1000", limit: 2), "a third connection of one caller")
        #expect(census.admit(caller: "uid 1001", limit: 2), "another caller at the same time")
        #expect(census.admit(caller: nil, limit: 2), "a caller nobody names is counted only in all")
        census.release(caller: "uid 1000")
        #expect(census.connections(of: "uid 1000") == 1)
        #expect(census.admit(caller: "uid 1000", limit: 2), "a closed connection frees its place")
        census.release(caller: "uid 1001")
        #expect(census.connections(of: "uid 1001") == 0)
    }

    @Test func refusalsForALimit_areLoggedAtMostOnceAnInterval_countingTheRest() {
        let census = HostCensus()
        #expect(census.refusalToLog(every: .seconds(60)) == 0, "the first is logged")
        for _ in 0..<5 { #expect(census.refusalToLog(every: .seconds(60)) == nil) }
        #expect(census.refusalToLog(every: .zero) == 5, "the next line counts those not logged")
    }

    @Test func callerAtItsCap_isRefused_whileAnotherCallerConnects() async throws {
        let suite = try SuiteFixture()
        let port = try freeLoopbackPort()
        let daemon = try suite.start(
            extra: [
                "VERTICALS_LISTEN": "tcp:127.0.0.1:\(port)", "VERTICALS_TLS": "off",
                "VERTICALS_MAX_CONNECTIONS_PER_PEER": "2",
            ], waitForSocket: false)
        defer { daemon.stop() }
        // Listening: a probe from a third address, which counts for neither caller below.
        #expect(eventually { (try? RawClient(host: "127.0.0.1", port: port, from: "127.0.0.3")) != nil })
        var held: [RawClient] = []
        #expect(
            eventually {
                guard let client = try? RawClient(host: "127.0.0.1", port: port, from: "127.0.0.1"),
                    client.pingAnswered()
                else { return false }
                held.append(client)
                return held.count == 2
            })
        let third = try RawClient(host: "127.0.0.1", port: port, from: "127.0.0.1")
        let refusal = try #require(third.receiveError(), "the third connection of 127.0.0.1 was not refused")
        #expect(refusal.envelope.correlationID == 0)
        #expect(refusal.error.code == .resourceExhausted && refusal.error.retryable, "\(refusal.error)")
        #expect(refusal.error.message.contains("VERTICALS_MAX_CONNECTIONS_PER_PEER"), "\(refusal.error.message)")
        let other = try RawClient(host: "127.0.0.1", port: port, from: "127.0.0.2")
        #expect(other.pingAnswered(), "another caller was refused while the first was at its cap")
        // A connection closed frees its caller's place.
        held.removeFirst()
        #expect(
            eventually { (try? RawClient(host: "127.0.0.1", port: port, from: "127.0.0.1"))?.pingAnswered() == true })
    }
}
