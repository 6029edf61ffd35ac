import Glibc
import VerticalsClient
import VerticalsContract
import VerticalsWire

/// Strangers who connect and never speak (over TCP, no ClientHello ever), held open against each
/// vertical: the daemon may hold no more of them than its cap on connections not yet admitted
/// (`VERTICALS_MAX_STARTUPS_PER_ADDRESS` from one address, over TCP) or, over a Unix socket where
/// a peer is admitted at accept, than its cap per caller (`VERTICALS_MAX_CONNECTIONS_PER_PEER`).
enum Strangers {
    /// Looks at the daemon's descriptors, 100 ms apart: past the grace a refused peer gets to
    /// read why (1 s).
    static let lookCount = 15

    /// Descriptors the daemon may open meanwhile for its own reasons (a callee's channel, a
    /// store's journal), beside the strangers'.
    static let slack = 2

    /// What holding strangers against `vertical` did: the descriptors it gained, and its cap.
    struct Outcome {
        let vertical: String
        let opened: Int
        let held: Int
        let cap: Int
        /// Whether `daemon.health` answered while they were held.
        let answered: Bool

        var problem: String? {
            if held > cap + slack {
                return
                    "held \(held) descriptors for \(opened) silent strangers, over its cap of \(cap) (and \(Strangers.slack) of its own)"
            }
            if !answered { return "did not answer daemon.health while \(opened) silent strangers were held" }
            return nil
        }
    }

    /// Opens more silent connections to `vertical` than its cap, waits for the daemon to accept
    /// them, counts what it holds, asks it for its health, and closes them.
    static func hold(_ vertical: String, endpoint: SocketEndpoint, probe: CostProbe) async -> Outcome? {
        let cap: Int
        switch endpoint {
        case .tcp: cap = DaemonSettings.maxStartupsPerAddress.defaultValue ?? 32
        case .unix: cap = DaemonSettings.maxConnectionsPerPeer.defaultValue ?? 128
        }
        guard let before = probe.descriptors(vertical) else { return nil }
        let opened = cap + 32
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        for _ in 0..<opened {
            guard let fd = connect(endpoint) else { break }
            sockets.append(fd)
        }
        // Accepting is the daemon's: give its loops a moment. Over TCP the highest of the looks
        // counts (a stranger past the cap is dropped at accept); over a Unix socket the last, once
        // a peer refused past the cap per caller has had its reason and its grace to read it.
        var held = 0
        for look in 1...lookCount {
            try? await Task.sleep(for: .milliseconds(100))
            let now = (probe.descriptors(vertical) ?? before) - before
            if case .tcp = endpoint { held = max(held, now) } else if look == lookCount { held = now }
        }
        let answered =
            (try? await probe.client.callRaw(
                service: vertical, operation: Daemon.health.fullName, body: Empty().encodedBody(),
                timeout: .seconds(10))) != nil
        return Outcome(vertical: vertical, opened: sockets.count, held: held, cap: cap, answered: answered)
    }

    /// A connected socket to `endpoint` that will never send, or nil.
    private static func connect(_ endpoint: SocketEndpoint) -> Int32? {
        switch endpoint {
        case .tcp(let host, let port):
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr(host)
            address.sin_port = port.bigEndian
            return connected(AF_INET, to: address)
        case .unix(let path):
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8.prefix(SocketEndpoint.maxUnixPathLength)) + [0]
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in bytes.enumerated() { raw[index] = byte }
            }
            return connected(AF_UNIX, to: address)
        }
    }

    /// A stream socket of `family` connected to `address` (a `sockaddr_in` or `sockaddr_un`), or nil.
    private static func connected<Address>(_ family: Int32, to address: Address) -> Int32? {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = address
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<Address>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            return nil
        }
        return fd
    }
}
