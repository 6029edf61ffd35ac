import Glibc
import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

extension NamespaceTests {
    /// The hostile-client checks over TCP, from another host (network namespace) to clinics on host a
    /// of a ``SplitSuite``: before the TLS handshake (a stranger's bytes, a handshake that never
    /// finishes, a byte-a-second sender, abandoned connections) and inside mutual TLS as the operator
    /// (bad lengths, truncated frames, a client that never reads). After each, clinics still serves.
    @Suite(.blocking) struct NamespaceHostileTests {
        /// Short timeouts on clinics, so that what a hostile client holds is let go in seconds.
        static let patience = [
            "clinics": [
                "VERTICALS_HANDSHAKE_TIMEOUT_SECONDS": "2", "VERTICALS_FRAME_TIMEOUT_SECONDS": "2",
                "VERTICALS_IDLE_TIMEOUT_SECONDS": "3",
            ]
        ]

        /// Clinics answers a caller again: at once, or once it has seen the hostile connections end
        /// (on a busy host a new connection may still find the handshake slots full of connections
        /// whose close clinics has not read yet, and be refused, `unavailable`: a caller retries).
        func expectStillServing(_ suite: SplitSuite) async throws {
            let nearest = try await retrying {
                try await suite.client.call(
                    Clinics.nearest, .init(latitude: 51.5074, longitude: -0.1278, limit: 3, service: .gp),
                    timeout: .seconds(10))
            }
            #expect(!nearest.clinics.isEmpty)
        }

        @Test func beforeTheHandshake_strangersAreClosed_andClinicsStillServes() async throws {
            let suite = try SplitSuite(extra: Self.patience)
            try await suite.up()
            // A TLS handshake that never finishes: nothing sent, closed at the handshake timeout.
            let silent = try suite.raw(to: "clinics")
            let opened = ContinuousClock.now
            guard case .closed = silent.receive() else { Issue.record("a silent connection stayed open"); return }
            #expect(ContinuousClock.now - opened < .seconds(8))
            // Bad lengths with no TLS at all: not a ClientHello, closed unanswered.
            for prefix: [UInt8] in [[0, 0, 0, 0], [0x7f, 0xff, 0xff, 0xff], [0, 0, 0, 3, 1, 2]] {
                let raw = try suite.raw(to: "clinics")
                _ = raw.sendWithoutBlocking(prefix + [1, 2, 3, 4])
                if case .message = raw.receive() { Issue.record("bytes that are not TLS got an answer") }
            }
            // A byte-a-second sender of a ClientHello's start: let go at the handshake timeout.
            let slow = try suite.raw(to: "clinics", receiveTimeout: .milliseconds(500))
            let hello: [UInt8] =
                [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03] + [UInt8](repeating: 7, count: 32)
            var closed = false
            for byte in hello where !closed {
                _ = slow.sendWithoutBlocking([byte])
                if case .closed = slow.receive() { closed = true }
            }
            #expect(closed, "a byte-a-second handshake kept its connection")
            // Abandoned connections: opened from host op and dropped, some mid-handshake.
            for index in 0..<200 {
                let raw = try suite.raw(to: "clinics")
                if index % 2 == 0 { _ = raw.sendWithoutBlocking(Array(hello.prefix(5))) }
            }
            try await expectStillServing(suite)
            suite.down()
        }

        @Test func insideMutualTLS_badFramesAreRefused_andClinicsStillServes() async throws {
            let suite = try SplitSuite(extra: Self.patience)
            try await suite.up()
            // A zero length, and one past the 4 MiB limit: protocolError, then closed.
            for prefix: [UInt8] in [[0, 0, 0, 0], [0x7f, 0xff, 0xff, 0xff]] {
                let raw = try suite.rawOverTLS(to: "clinics")
                try raw.send(prefix + [1, 2, 3, 4])
                raw.expectErrorThenClosed(.protocolError)
            }
            let frame = Message.frame(
                Envelope(kind: .request, correlationID: 1, operation: Clinics.nearest.fullName), rawBody: [1, 2, 3])
            // A truncated frame, then the end of the stream.
            for cut in [1, 3, 6] {
                let raw = try suite.rawOverTLS(to: "clinics")
                try raw.send(Array(frame.prefix(cut)))
                raw.finishSending()
                raw.expectErrorThenClosed(nil)
            }
            // A truncated frame left hanging: deadlineExceeded at the frame timeout, then closed.
            let hanging = try suite.rawOverTLS(to: "clinics")
            try hanging.send(Array(frame.prefix(6)))
            hanging.expectErrorThenClosed(.deadlineExceeded)
            try await expectStillServing(suite)
            suite.down()
        }

        @Test func insideMutualTLS_aClientThatNeverReads_isPausedThenClosed() async throws {
            let suite = try SplitSuite(extra: Self.patience)
            try await suite.up()
            let raw = try suite.rawOverTLS(to: "clinics", receiveTimeout: .seconds(2))
            let body = Clinics.NearestInput(latitude: 51.5074, longitude: -0.1278, limit: 20, service: .gp)
                .encodedBody()
            func request(_ id: UInt64) -> [UInt8] {
                Message.frame(
                    Envelope(kind: .request, correlationID: id, operation: Clinics.nearest.fullName), rawBody: body)
            }
            // One answered first: its size says how many requests 1 GiB of unread replies takes (the
            // kernel alone may hold ~40 MiB of them: tcp_rmem's 32 MiB, the sender's 4 MiB).
            try raw.send(request(1))
            guard case .message(let first) = raw.receive(), first.envelope.kind == .response else {
                Issue.record("clinics.nearest was not answered")
                return
            }
            let limit = UInt64(1 << 30) / UInt64(max(first.body.count, 64))
            let residentBefore = suite.hostA.residentBytes()["clinics"] ?? 0
            let id = raw.sendUntilStalled(after: 1, upTo: limit, request)
            let grown = (suite.hostA.residentBytes()["clinics"] ?? 0) - residentBefore
            #expect(
                id < limit, "clinics read \(id) requests (1 GiB of replies) without pausing a client that never reads")
            #expect(grown < 64 << 20, "clinics grew by \(grown >> 20) MiB for a client that never reads")
            try await expectStillServing(suite)
            // Left unread past the idle timeout, the connection is closed.
            let drained = eventually(timeout: .seconds(60)) { raw.drainUntilClosed() }
            #expect(drained, "the never-reading connection was not closed")
            try await expectStillServing(suite)
            suite.down()
        }
    }
}
