import Foundation
import Glibc
import Testing
import Synchronization

/// Separate "hosts" on one machine: a network namespace per host (`ip netns`), each with its own
/// address on one private segment, joined by a bridge in a namespace of its own, so nothing is
/// added to the machine's own network. Names carry the run's tag and the lab's number (`vt-<tag>-<n>-<host>`); everything
/// (namespaces, their veths, `/etc/netns/<namespace>`, the processes left inside) is removed by
/// ``tearDown()``, which `deinit` calls, failed test or not.
///
/// ```swift
/// guard NetworkLab.unavailableReason == nil else { return }
/// let lab = try NetworkLab(hosts: ["a", "b", "op"])
/// try lab.writeHosts(["identity": lab.address(of: "a")])      // /etc/netns/<ns>/hosts, every host
/// let daemon = try lab.spawn(on: "a", "svc-identity", environment: …)
/// ```
///
/// Root only: ``unavailableReason`` says why it cannot run elsewhere.
public final class NetworkLab {
    /// The hosts, in the order given; host `i` has address `10.231.0.(10+i)/24` on its `eth0`.
    public let hosts: [String]
    /// The namespace joining them (a bridge, `br0`).
    public let switchNamespace: String
    private let scratch = TemporaryDirectory()
    private var made: [String] = []

    /// Why a lab cannot be built here (not root, no `ip netns`), or nil when it can.
    public static var unavailableReason: String? {
        guard geteuid() == 0 else { return "needs root (ip netns, veth pairs, nftables): run the tests as root" }
        guard let ip = ipPath else { return "no ip command (apt-get install iproute2)" }
        let probe = TemporaryDirectory()
        guard let listed = try? runCommand(ip, ["netns", "list"], in: probe), listed.status == 0 else {
            return "`ip netns list` fails here: no network namespaces"
        }
        return nil
    }

    /// Where `ip` is.
    public static let ipPath: String? = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first {
        access($0, X_OK) == 0
    }

    /// How many labs this process made.
    private static let labsMade = Atomic<Int>(0)

    /// Where `nft` is, if nftables is installed.
    public static let nftPath: String? = ["/usr/sbin/nft", "/sbin/nft", "/usr/bin/nft"].first { access($0, X_OK) == 0 }

    /// Makes a namespace per host and joins them; throws (after removing what it made) when a step fails.
    public init(hosts: [String], tag: String = TestRunTag.value) throws {
        self.hosts = hosts
        // Labs of one run may exist at once (suites run in parallel): each has its own number.
        switchNamespace = "vt-\(tag)-\(Self.labsMade.add(1, ordering: .relaxed).newValue)-sw"
        do {
            try addNamespace(switchNamespace)
            try ip(["-n", switchNamespace, "link", "add", "name", "br0", "type", "bridge"])
            try ip(["-n", switchNamespace, "link", "set", "br0", "up"])
            for (index, host) in hosts.enumerated() {
                let namespace = self.namespace(of: host)
                try addNamespace(namespace)
                // Made inside the switch with its peer already in the host: never in the machine's own namespace.
                try ip([
                    "-n", switchNamespace, "link", "add", "name", "p\(index)", "type", "veth", "peer", "name", "eth0",
                    "netns", namespace,
                ])
                try ip(["-n", switchNamespace, "link", "set", "p\(index)", "master", "br0"])
                try ip(["-n", switchNamespace, "link", "set", "p\(index)", "up"])
                try ip(["-n", namespace, "addr", "add", "\(address(of: host))/24", "dev", "eth0"])
                try ip(["-n", namespace, "link", "set", "eth0", "up"])
                try ip(["-n", namespace, "link", "set", "lo", "up"])
            }
        } catch {
            tearDown()
            throw error
        }
    }

    /// The namespace of `host`: `vt-<tag>-<n>-<host>`.
    public func namespace(of host: String) -> String {
        "\(switchNamespace.dropLast(2))\(host)"
    }

    /// The address of `host`.
    public func address(of host: String) -> String {
        guard let index = hosts.firstIndex(of: host) else { preconditionFailure("no host \(host) in the lab") }
        return "10.231.0.\(10 + index)"
    }

    /// Writes `/etc/netns/<namespace>/hosts` for every host: `localhost`, and each name of
    /// `names` at its address. A process started with `ip netns exec` (``spawn(on:_:_:environment:stderrPath:)``)
    /// sees it as `/etc/hosts`, so names resolve as a cluster's DNS would resolve its Services.
    public func writeHosts(_ names: [String: String]) throws {
        var text = "127.0.0.1 localhost\n::1 localhost\n"
        for (name, address) in names.sorted(by: { $0.key < $1.key }) { text += "\(address) \(name)\n" }
        for host in hosts {
            let folder = "/etc/netns/\(namespace(of: host))"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try text.write(toFile: "\(folder)/hosts", atomically: true, encoding: .utf8)
        }
    }

    /// Starts `executable` (a product name or a path) on `host`, through `ip netns exec` (which
    /// execs it in its own place: the pid is the program's).
    public func spawn(
        on host: String, _ executable: String, _ arguments: [String] = [], environment: [String: String] = [:],
        stderrPath: String? = nil
    ) throws -> DaemonProcess {
        let path = executable.hasPrefix("/") ? executable : "\(DaemonProcess.productsDirectory)/\(executable)"
        return try DaemonProcess(
            Self.ipPath ?? "ip", ["netns", "exec", namespace(of: host), path] + arguments, environment: environment,
            stderrPath: stderrPath)
    }

    /// Runs `executable` on `host` to completion (``runCommand(_:_:environment:in:standardInput:timeout:sourceLocation:)``).
    public func run(on host: String, _ executable: String, _ arguments: [String], timeout: Duration = .seconds(30))
        throws -> CommandResult
    {
        try runCommand(
            Self.ipPath ?? "ip", ["netns", "exec", namespace(of: host), executable] + arguments, in: scratch,
            timeout: timeout)
    }

    /// Loads nftables rules `ruleset` (nft's own syntax) into `host`'s namespace.
    public func loadRules(on host: String, _ ruleset: String) throws {
        let file = scratch.file("rules-\(host).nft")
        try ruleset.write(toFile: file, atomically: true, encoding: .utf8)
        guard let nft = Self.nftPath else { throw RawSocketError("no nft command (apt-get install nftables)") }
        let result = try run(on: host, nft, ["-f", file])
        guard result.status == 0 else { throw RawSocketError("nft -f on \(host): \(result.standardError)\n\(ruleset)") }
    }

    /// What a TCP connect came to.
    public enum ConnectOutcome: Sendable, Equatable {
        /// The peer accepted.
        case connected
        /// Refused (a reset: nobody listens, or a rule rejects).
        case refused
        /// No answer within the time given: the SYN was dropped.
        case timedOut
    }

    /// Tries a TCP connect from `host` to `address`:`port` (an IPv4 literal) for at most `timeout`.
    public func connect(from host: String, to address: String, port: UInt16, timeout: Duration) throws -> ConnectOutcome
    {
        try NetworkNamespace.run(in: namespace(of: host)) {
            let descriptor = socket(
                AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard descriptor >= 0 else { throw RawSocketError("socket") }
            defer { close(descriptor) }
            var target = sockaddr_in()
            target.sin_family = sa_family_t(AF_INET)
            target.sin_port = port.bigEndian
            guard inet_pton(AF_INET, address, &target.sin_addr) == 1 else {
                throw RawSocketError("not an IPv4 address: \(address)")
            }
            let started = withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if started == 0 { return .connected }
            guard errno == EINPROGRESS else { return .refused }
            var poll = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let milliseconds = Int32(
                timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
            guard Glibc.poll(&poll, 1, milliseconds) == 1 else { return .timedOut }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
            return error == 0 ? .connected : .refused
        }
    }

    /// Kills every process left in the lab's namespaces, deletes the namespaces (their veths and
    /// the bridge go with them) and their `/etc/netns` folders. Safe to call again.
    public func tearDown() {
        for namespace in made.reversed() {
            if let pids = try? runCommand(
                Self.ipPath ?? "ip", ["netns", "pids", namespace], in: scratch, timeout: .seconds(10))
            {
                for pid in pids.standardOutput.split(separator: "\n").compactMap({ Int32($0) }) { kill(pid, SIGKILL) }
            }
            _ = try? runCommand(Self.ipPath ?? "ip", ["netns", "del", namespace], in: scratch, timeout: .seconds(10))
            try? FileManager.default.removeItem(atPath: "/etc/netns/\(namespace)")
        }
        made.removeAll()
    }

    private func addNamespace(_ name: String) throws {
        // A namespace of the same name is a crashed earlier run's with this tag: take it over.
        if access("\(NetworkNamespace.folder)/\(name)", F_OK) == 0 {
            _ = try? runCommand(Self.ipPath ?? "ip", ["netns", "del", name], in: scratch)
        }
        try ip(["netns", "add", name])
        made.append(name)
    }

    private func ip(_ arguments: [String]) throws {
        let result = try runCommand(Self.ipPath ?? "ip", arguments, in: scratch, timeout: .seconds(20))
        guard result.status == 0 else {
            throw RawSocketError("ip \(arguments.joined(separator: " ")): \(result.standardError)")
        }
    }

    deinit { tearDown() }
}
