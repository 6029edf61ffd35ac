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
    /// A TCP connection from `source` (a loopback address) to the daemon, never written to.
    static func silentConnection(from source: String, to port: UInt16) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, source, &local.sin_addr)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Whether the daemon closed `fd`'s connection (end of stream or a reset is waiting on it).
    static func isClosedByPeer(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) == 1 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) <= 0
    }

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
        var strangers: [Int32] = []
        defer { for fd in strangers { close(fd) } }
        for _ in 0..<wanted {
            guard let fd = Self.silentConnection(from: "127.0.0.2", to: port) else { break }
            strangers.append(fd)
        }
        #expect(strangers.count > cap * 10, "opened only \(strangers.count) connections")
        #expect(
            eventually { strangers.filter { !Self.isClosedByPeer($0) }.count <= cap },
            "the daemon kept more than \(cap) silent connections of one address")
        let held = Self.openDescriptors(of: daemon.pid)
        #expect(held <= settled + cap, "\(held) descriptors open, \(settled) before the strangers came")

        #expect(try await client.call(echo.echo, .init(text: "while held")).text == "while held")
        #expect(strangers.filter { !Self.isClosedByPeer($0) }.count == cap, "the cap's strangers are held, not more")
    }
}
