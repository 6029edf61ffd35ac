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

    @Test func silentStrangersFromOneAddress_holdAtMostTheirCap_whileAnAdmittedCallerIsAnswered() async throws {
        let cap = 8
        let daemon = try startDaemon(extra: [
            "VERTICALS_MAX_STARTUPS_PER_ADDRESS": "\(cap)",
            // Held for the whole test unless the gate lets them go: the cap is what bounds them.
            "VERTICALS_TLS_HANDSHAKE_TIMEOUT_SECONDS": "600",
        ])
        let loop = try EventLoop(name: "strangers-test")
        defer { loop.shutdown() }
        let client = client(try ca.issue("orders"), loop: loop)
        defer { client.close() }
        #expect(try await client.call(echo.echo, .init(text: "before")).text == "before")
        let settled = Self.openDescriptors(of: daemon.pid)

        // As the attacker did, from one address (127.0.0.2: loopback, not the caller's).
        let wanted = min(1_100, DescriptorLimit.raiseToHard() - 256)
        var strangers: [RawClient] = []
        for _ in 0..<wanted {
            guard let stranger = try? RawClient(host: "127.0.0.1", port: port, from: "127.0.0.2") else { break }
            strangers.append(stranger)
        }
        #expect(strangers.count > cap * 10, "opened only \(strangers.count) connections")
        #expect(
            eventually { strangers.filter { !$0.isClosedByPeer }.count <= cap },
            "the daemon kept more than \(cap) silent connections of one address")
        let held = Self.openDescriptors(of: daemon.pid)
        #expect(held <= settled + cap, "\(held) descriptors open, \(settled) before the strangers came")

        #expect(try await client.call(echo.echo, .init(text: "while held")).text == "while held")
        #expect(strangers.filter { !$0.isClosedByPeer }.count == cap, "the cap's strangers are held, not more")
    }
}
