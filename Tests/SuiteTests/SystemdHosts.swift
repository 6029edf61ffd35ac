import Testing
import Foundation
import Glibc
import VerticalsClient
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting

/// Two systemd hosts booted by `scripts/systemd-hosts.sh` from `deploy/two-hosts.toml`: host a
/// runs identity and clinics, host b appointments, records and notifications, each unit as
/// `export systemd --host` wrote it, under systemd 252 as PID 1 in a `systemd-nspawn` container.
/// The operator's client sits on host b's network.
final class SystemdHosts {
    /// Why the hosts cannot be booted here, or nil.
    static let unavailableReason: String? = {
        if getuid() != 0 { return "needs root (overlays, network namespaces, systemd-nspawn)" }
        if access("/usr/bin/systemd-nspawn", X_OK) != 0 && access("/usr/bin/apt-get", X_OK) != 0 {
            return "no systemd-nspawn, and no apt-get to install systemd-container"
        }
        return nil
    }()

    /// The manifest the hosts run.
    static let manifest = "\(NewCommandTests.repositoryRoot)/deploy/two-hosts.toml"

    let directory: TemporaryDirectory
    /// The folder `up` made (and `down` removes).
    var work: String { directory.file("h") }
    /// Each host's PID 1, as this machine sees it: `nsenter -t PID -a` runs a command inside it.
    let leaders: [String: Int32]
    /// Each host's network namespace (`ip netns`).
    let namespaces: [String: String]
    /// The certificates `svc-supervisor certs` minted, the operator's among them.
    let certificates: String
    /// How long `up` took, boot included.
    let bootTime: Duration

    /// Boots both hosts, or with `oneHost` host a alone with the one-host units of
    /// `deploy/suite.toml` (or of `manifest`); throws (having removed everything) when they do not come up.
    ///
    /// The boot takes minutes, on a thread of its own: on one of Swift Testing's worker threads
    /// (as many as the machine has cores) it held that thread the whole time, and with another
    /// long test holding the other, every async test of the parallel run stalled past its limit.
    static func boot(oneHost: Bool = false, manifest: String? = nil) async throws -> SystemdHosts {
        let started = ContinuousClock.now
        let directory = TemporaryDirectory()
        let work = directory.file("h")
        let script = "\(NewCommandTests.repositoryRoot)/scripts/systemd-hosts.sh"
        // The run's PATH, where the script finds the `litestream` it copies into a host that replicates.
        var environment = [
            "VT_HOSTS_BIN": DaemonProcess.productsDirectory,
            "PATH": getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin",
        ]
        if oneHost { environment["VT_HOSTS_ONE"] = "1" }
        if let manifest = manifest ?? (oneHost ? nil : Self.manifest) { environment["VT_HOSTS_MANIFEST"] = manifest }
        let result = try await offThePool { [environment] in
            try runCommand(
                "/bin/bash", [script, "up", work], environment: environment, in: TemporaryDirectory(),
                timeout: .seconds(1200))
        }
        return try SystemdHosts(directory: directory, booted: result, started: started)
    }

    private init(directory: TemporaryDirectory, booted result: CommandResult, started: ContinuousClock.Instant) throws {
        self.directory = directory
        guard result.status == 0, let env = readFile(directory.file("h/hosts.env")) else {
            throw HostsError("systemd-hosts.sh up exited \(result.status):\n\(result.standardError)")
        }
        var values: [String: String] = [:]
        for line in env.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
        leaders = ["a": Int32(values["HOST_A_PID"] ?? "") ?? 0, "b": Int32(values["HOST_B_PID"] ?? "") ?? 0]
        namespaces = ["a": values["HOST_A_NETNS"] ?? "", "b": values["HOST_B_NETNS"] ?? ""]
        certificates = values["CERTS"] ?? ""
        bootTime = ContinuousClock.now - started
        print(
            "systemd-hosts: up in \(bootTime) (\(result.standardError.split(separator: "\n").suffix(2).joined(separator: "; ")))"
        )
    }

    /// Powers both hosts off and removes their namespaces, veth, overlays and files.
    func down() {
        _ = try? runCommand(
            "/bin/bash", ["\(NewCommandTests.repositoryRoot)/scripts/systemd-hosts.sh", "down", work], in: directory,
            timeout: .seconds(120))
    }

    deinit { down() }

    /// Runs `command` inside host `host` (`nsenter -t PID -a`).
    func inside(_ host: String, _ command: [String], timeout: Duration = .seconds(60)) throws -> CommandResult {
        try runCommand(
            "/usr/bin/nsenter", ["-t", "\(leaders[host] ?? 0)", "-a"] + command, in: directory, timeout: timeout)
    }

    /// The main pid (inside its host) of `name`'s unit, 0 when it runs none.
    func mainPID(_ name: String, on host: String) throws -> Int {
        let result = try inside(host, ["systemctl", "show", "-p", "MainPID", "--value", "verticals-\(name).service"])
        return Int(result.standardOutput.trimmingWhitespace) ?? 0
    }

    /// The endpoint of every service of the manifest, as `VERTICALS_ENDPOINT_<NAME>` variables.
    static func endpoints() -> [String: String] {
        var environment: [String: String] = [:]
        var service: String?
        for line in (readFile(manifest) ?? "").split(separator: "\n") {
            if line.hasPrefix("[services.") { service = String(line.dropFirst("[services.".count).dropLast()) }
            if line.hasPrefix("endpoint = \""), let service {
                environment["VERTICALS_ENDPOINT_\(service.uppercased())"] = String(
                    line.dropFirst("endpoint = \"".count).dropLast())
            }
        }
        return environment
    }

    /// The three files of `name`'s certificate (a service, or `operator`).
    func files(of name: String) -> [String: String] {
        [
            "VERTICALS_TLS_CERT": "\(certificates)/\(name)/tls.crt",
            "VERTICALS_TLS_KEY": "\(certificates)/\(name)/tls.key",
            "VERTICALS_TLS_CA": "\(certificates)/\(name)/ca.crt",
        ]
    }

    /// A client of the one-host units on `loop`, calling each vertical at its Unix socket in host
    /// a's `/run/verticals` (through `/proc/PID/root`), as root: a caller every vertical admits.
    func socketClient(loop: EventLoop) -> ServiceClient {
        let sockets = SocketDirectory.from(environment: [
            "VERTICALS_SOCKET_DIR": "/proc/\(leaders["a"] ?? 0)/root/run/verticals"
        ])
        return ServiceClient(loop: loop, sockets: sockets, defaultTimeout: .seconds(30))
    }

    /// A loop whose connections start on host `host`'s network.
    func loop(on host: String, _ name: String) async throws -> EventLoop {
        let loop = try EventLoop(name: name)
        let namespace = namespaces[host] ?? ""
        try await loop.submit { try NetworkNamespace.enter(namespace) }
        return loop
    }

    /// A client on `loop` presenting `name`'s certificate (plain TCP when nil), finding every
    /// vertical at its endpoint.
    func client(presenting name: String?, loop: EventLoop) -> ServiceClient {
        var environment = Self.endpoints()
        environment["VERTICALS_SOCKET_DIR"] = directory.file("none")
        if let name { environment.merge(files(of: name)) { $1 } } else { environment["VERTICALS_TLS"] = "off-insecure" }
        // A login hashes its password in identity's compute processes, which yield to every
        // other process: on a host kept busy (the test bundle beside busy loops) they wait.
        return ServiceClient(
            loop: loop, sockets: SocketDirectory.from(environment: environment), defaultTimeout: .seconds(30))
    }

    struct HostsError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

extension String {
    /// Without leading and trailing spaces and newlines.
    fileprivate var trimmingWhitespace: String {
        String(drop { $0 == " " || $0 == "\n" }.reversed().drop { $0 == " " || $0 == "\n" }.reversed())
    }
}

/// Runs `body`, which blocks for long, on a thread of its own and awaits its result, holding none
/// of Swift Testing's worker threads meanwhile.
func offThePool<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
