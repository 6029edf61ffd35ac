import Glibc
import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// The reference suite under a real `svc-supervisor up` (its own manifest, in a temporary run
/// directory), with a client, and the means to kill any part of it, the supervisor included.
final class SupervisedSuite {
    static let services = ["identity", "clinics", "notifications", "appointments"]

    let directory = TemporaryDirectory()
    let loop: EventLoop
    let client: ServiceClient
    /// The services this supervisor runs (and ``waitUntilAllReady(timeout:)`` waits for).
    let services: [String]
    /// The network namespace ("host") the supervisor runs in, when not the test's own.
    let host: (lab: NetworkLab, name: String)?
    /// Variables the supervisor runs with besides the harness's own.
    let environment: [String: String]
    private(set) var supervisor: DaemonProcess?
    var run: String { directory.file("run") }
    var manifest: String { directory.file("suite.toml") }

    /// The reference suite under manifest `text` (``referenceManifest`` unless given), running
    /// `services`; on `host` of a lab when given (through `ip netns exec`). The client finds the
    /// verticals through `clientSockets` when given, else in the run directory's socket folder.
    /// `environment` is added to the supervisor's.
    init(
        manifest text: String = SupervisedSuite.referenceManifest, services: [String] = SupervisedSuite.services,
        host: (lab: NetworkLab, name: String)? = nil, clientSockets: SocketDirectory? = nil,
        environment: [String: String] = [:]
    ) throws {
        self.services = services
        self.host = host
        self.environment = environment
        let file = fopen(directory.file("suite.toml"), "w")
        fputs(text, file)
        fclose(file)
        loop = try EventLoop(name: "supervised-suite-client")
        client = ServiceClient(
            loop: loop, sockets: clientSockets ?? SocketDirectory(directory.file("run") + "/sockets"),
            defaultTimeout: .seconds(5))
    }

    /// The typed error `body` threw (any other error as `internal`), or nil when it returned.
    static func refusal(_ body: () async throws -> Void) async -> ServiceError? {
        do {
            try await body()
            return nil
        } catch let error as ServiceError {
            return error
        } catch {
            return ServiceError(.internal, "\(error)")
        }
    }

    /// Four verticals on Unix sockets, with fast restarts and a budget no test exhausts: the kills are the point.
    static let referenceManifest = """
        [defaults]
        backoff = { initial = "50ms", max = "500ms", multiplier = 2.0 }
        budget = { restarts = 1000, window = "60s" }
        stop_timeout = "5s"
        [services.identity]
        executable = "svc-identity"
        receives = ["sessions", "first_admin", "password", "roles", "logout"]
        env = { IDENTITY_PWHASH_OPSLIMIT = "1", IDENTITY_PWHASH_MEMLIMIT = "8192" }
        [services.clinics]
        executable = "svc-clinics"
        [services.notifications]
        executable = "svc-notifications"
        depends_on = ["identity"]
        [services.appointments]
        executable = "svc-appointments"
        depends_on = ["identity", "clinics", "notifications"]
        env = { APPOINTMENTS_RETRY_MAX_MS = "200" }
        """

    /// A new suite, up, with every service ready (an expectation that fails the test otherwise).
    static func ready() async throws -> SupervisedSuite {
        let suite = try SupervisedSuite()
        try await suite.up()
        #expect(await suite.waitUntilAllReady(), "the suite never came up")
        return suite
    }

    /// The ids of the `limit` GP clinics nearest central London, as clinics serves them.
    func clinicsNearLondon(limit: Int = 20) async throws -> [String] {
        try await client.call(Clinics.nearest, .init(latitude: 51.5074, longitude: -0.1278, limit: limit, service: .gp))
            .clinics.map(\.clinic.id)
    }

    /// `svc-supervisor up` on this run directory (again, after a kill: it takes over what is left).
    func up() async throws {
        let arguments = ["up", "--manifest", manifest, "--run-dir", run]
        if let host {
            supervisor = try host.lab.spawn(on: host.name, "svc-supervisor", arguments, environment: environment)
        } else {
            supervisor = try DaemonProcess("svc-supervisor", arguments, environment: environment)
        }
    }

    /// Each service's state word and pid, from `svc-supervisor status`.
    func status() -> [String: (state: String, pid: Int32?)] {
        guard
            let result = try? runCommand(
                "svc-supervisor", ["status", "--run-dir", run], in: directory, timeout: .seconds(5)),
            result.status == 0 || result.status == 3 // 3: a service is failed; its row is still there
        else { return [:] }
        return Self.rows(ofStatus: result.standardOutput)
    }

    /// Each service's state word and pid in the table `svc-supervisor status` printed.
    static func rows(ofStatus table: String) -> [String: (state: String, pid: Int32?)] {
        var rows: [String: (state: String, pid: Int32?)] = [:]
        // The rows under the table's header (the line above it names the suite).
        for line in table.split(separator: "\n").drop(while: { !$0.hasPrefix("NAME ") }).dropFirst() {
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            guard columns.count >= 3 else { continue }
            rows[String(columns[0])] = (String(columns[1]), Int32(columns[2]))
        }
        return rows
    }

    /// Whether every service reports `ready` within `timeout`: a bound for a loaded machine, where a
    /// five-vertical suite starts beside a hundred other process tests. When it runs out, the last
    /// `status` rows are printed, so the failure says which service was where.
    func waitUntilAllReady(timeout: Duration = .seconds(60)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        var rows: [String: (state: String, pid: Int32?)] = [:]
        while ContinuousClock.now < deadline {
            rows = status()
            if services.allSatisfy({ rows[$0]?.state == "ready" }) { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        let seen = services.map { "\($0)=\(rows[$0]?.state ?? "no row")" }.joined(separator: " ")
        print("\(run): not all ready after \(timeout): \(seen)")
        return false
    }

    /// SIGKILL to service `name`, or to the supervisor (then `up` again once its children died).
    func kill(_ name: String) async throws {
        if name == "supervisor" {
            let children = status().values.compactMap(\.pid)
            supervisor?.signal(SIGKILL)
            supervisor?.waitForExit()
            // vt-exec's PDEATHSIG takes the children down with it.
            // Until they are gone (a fixed bound guessed at an idle machine's speed): a child still
            // holding its store when `up` starts it again would exit 78 and stay down.
            let deadline = ContinuousClock.now + .seconds(60)
            while children.contains(where: { Glibc.kill($0, 0) == 0 }), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            try await up()
            return
        }
        guard let pid = status()[name]?.pid else { throw RawSocketError("\(name) has no pid to kill") }
        Glibc.kill(pid, SIGKILL)
        // Until the supervisor has seen it die, status still says ready under the old pid.
        let deadline = ContinuousClock.now + .seconds(60)
        while status()[name]?.pid == pid, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Registers and logs in a new patient; returns the session token.
    func newPatient(_ name: String) async throws -> String {
        try await Self.newPatient(name, through: client)
    }

    /// Registers and logs in a new patient through `client`; returns the session token.
    ///
    /// A set-up step, not what a test checks: each call may take up to ``setUpTimeout``, since
    /// identity hashes passwords on its compute threads, which run below every busy process on
    /// a loaded machine (a register is not retried: it may have been done).
    static func newPatient(_ name: String, through client: ServiceClient) async throws -> String {
        let email = "\(name)-\(UInt32.random(in: 0...UInt32.max))@example.org"
        try await register(email, password: "correct-horse-battery", name: name, through: client)
        return try await logIn(email, password: "correct-horse-battery", through: client)
    }

    /// Registers a patient through `client` (a set-up step, as ``newPatient(_:through:)``).
    static func register(_ email: String, password: String, name: String, through client: ServiceClient)
        async throws
    {
        _ = try await retrying {
            try await client.call(
                Identity.register, .init(email: email, password: password, displayName: name), timeout: setUpTimeout)
        }
    }

    /// Logs a registered patient in through `client`; returns the session token.
    static func logIn(_ email: String, password: String, through client: ServiceClient) async throws -> String {
        try await retrying {
            try await client.call(Identity.login, .init(email: email, password: password), timeout: setUpTimeout)
        }.token
    }

    /// How long a set-up call (``newPatient(_:through:)``) may take.
    static let setUpTimeout = Duration.seconds(60)

    /// Each service's resident memory now, in bytes.
    func residentBytes() -> [String: Int] {
        var sizes: [String: Int] = [:]
        for (name, row) in status() {
            guard let pid = row.pid, let text = readFile("/proc/\(pid)/status"),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
                let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
            else { continue }
            sizes[name] = kilobytes * 1024
        }
        return sizes
    }

    /// `svc-supervisor down`, then waits for the supervisor to exit.
    func down() {
        _ = try? runCommand("svc-supervisor", ["down", "--run-dir", run], in: directory)
        supervisor?.waitForExit(timeout: .seconds(15))
    }

    deinit {
        supervisor?.stop()
        client.close()
        loop.shutdown()
    }
}
