import Glibc
import Testing
@testable import VerticalsEventLoop

/// A host name's addresses are tried in turn: the first refuses, the next connects.
@Suite("Connection: a host name's next address after a refused one", .timeLimit(.minutes(3)))
struct ConnectFallbackTests {
    // The limit guards against a hang, and is no measure: in the full parallel run an async test
    // waits its turn for one of Swift Testing's worker threads (as many as cores), which process
    // tests hold for seconds at a time, and a whole suite of these was seen waiting past a minute.

    @Test func refusedFirstAddress_fallsBackToTheNext_onAFreshHandle() async throws {
        try await withEventLoop { loop in
            let server = try await TCPConnectionTests.startTCPEcho(.tcp(host: "127.0.0.1", port: 0), on: loop)
            guard case .tcp(_, let port) = server.bound else { return }
            let refusedPort = try refusingLoopbackPort()
            let connection = try await connectOutcome("connect with a fallback", on: loop) { completion in
                let connection = Connection(loop: loop, options: .init(), state: .connecting, transport: .tcp)
                connection.connectTCP(
                    to: SocketAddress.numeric(host: "127.0.0.1", port: refusedPort)!,
                    fallbacks: [SocketAddress.numeric(host: "127.0.0.1", port: port)!], completion)
            }.get()
            try await loop.submit {
                #expect(connection.value.peerEndpoint == .tcp(host: "127.0.0.1", port: port))
                connection.value.close()
                server.listener.value.close()
            }
        }
    }

    @Test func everyAddressRefused_failsWithConnectionRefused() async throws {
        try await withEventLoop { loop in
            let refusedPort = try refusingLoopbackPort()
            let outcome = try await connectOutcome("connect, all refused", on: loop) { completion in
                let connection = Connection(loop: loop, options: .init(), state: .connecting, transport: .tcp)
                let address = SocketAddress.numeric(host: "127.0.0.1", port: refusedPort)!
                connection.connectTCP(to: address, fallbacks: [address, address], completion)
            }
            #expect(throws: EventLoopError.connectionRefused) { try outcome.get() }
        }
    }
}
