import Glibc
import Testing
import VerticalsClient
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTestSupport
import VerticalsTesting

/// Strangers who connect to a TLS daemon and never send a ClientHello are counted and capped at
/// accept, before any TLS state is spent on them (``StartupGate``, OpenSSH's `MaxStartups`): one
/// address holds at most `VERTICALS_MAX_STARTUPS_PER_ADDRESS` of the daemon's descriptors, and an
/// admitted mutual-TLS caller is still answered while they are held.
extension TLSHostTests {
    /// The descriptors `pid` holds open.
    static func openDescriptors(of pid: pid_t) -> Int {
        guard let folder = opendir("/proc/\(pid)/fd") else { return 0 }
        defer { closedir(folder) }
        var count = 0
        while let entry = readdir(folder) {
            if entry.pointee.d_name.0 != 0x2E { count += 1 } // not "." or ".."
        }
        return count
    }

    /// vt-testd as ``startDaemon(_:extra:)`` starts it, holding at most `cap` connections not yet
    /// admitted from one address, with `extra`: a stranger is held for the whole test unless the
    /// cap lets it go.
    func startDaemon(capping cap: Int, extra: [String: String] = [:]) throws -> DaemonProcess {
        let capped = ["VERTICALS_MAX_STARTUPS_PER_ADDRESS": "\(cap)", "VERTICALS_TLS_HANDSHAKE_TIMEOUT_SECONDS": "600"]
        return try startDaemon(extra: capped.merging(extra) { $1 })
    }

    /// A loop and a client presenting orders' certificate, answered once: the caller the strangers
    /// must not crowd out. Close the client, then shut the loop down.
    func answeredCaller(loop name: String) async throws -> (loop: EventLoop, client: ServiceClient) {
        let loop = try EventLoop(name: name)
        let client = client(try ca.issue("orders"), loop: loop)
        #expect(try await client.call(echo.echo, .init(text: "before")).text == "before")
        return (loop, client)
    }

    /// Up to `count` connections to the daemon that never speak, from one address (127.0.0.2:
    /// loopback, not the caller's), as the attacker opened them; expects the daemon to keep at
    /// most `cap` of them open.
    func silentStrangers(_ count: Int, cap: Int) -> [RawClient] {
        var strangers: [RawClient] = []
        for _ in 0..<count {
            guard let stranger = try? RawClient(host: "127.0.0.1", port: port, from: "127.0.0.2") else { break }
            strangers.append(stranger)
        }
        #expect(
            eventually { strangers.filter { !$0.isClosedByPeer }.count <= cap },
            "the daemon kept more than \(cap) silent connections of one address")
        return strangers
    }

    @Test func silentStrangersFromOneAddress_holdAtMostTheirCap_whileAnAdmittedCallerIsAnswered() async throws {
        let cap = 8
        let daemon = try startDaemon(capping: cap)
        let (loop, client) = try await answeredCaller(loop: "strangers-test")
        defer {
            client.close()
            loop.shutdown()
        }
        let settled = Self.openDescriptors(of: daemon.pid)

        let strangers = silentStrangers(min(1_100, DescriptorLimit.raiseToHard() - 256), cap: cap)
        #expect(strangers.count > cap * 10, "opened only \(strangers.count) connections")
        let held = Self.openDescriptors(of: daemon.pid)
        #expect(held <= settled + cap, "\(held) descriptors open, \(settled) before the strangers came")

        #expect(try await client.call(echo.echo, .init(text: "while held")).text == "while held")
        #expect(strangers.filter { !$0.isClosedByPeer }.count == cap, "the cap's strangers are held, not more")
    }
}
