import Glibc
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsSupervisorClient
import VerticalsWire

/// A suite under its own `svc-supervisor up`, in a temporary run directory, with its own suite
/// pointer (so that it never takes over, nor is found as, another suite on the machine): what
/// `make fuzz-live` fuzzes. Every child inherits the caller's `VT_TEST_TAG`.
final class LiveSuite {
    /// The temporary folder: the manifest's run directory is `run/` in it, the supervisor's output `supervisor.log`.
    let folder: String
    /// The supervisor's process.
    let supervisor: pid_t
    /// Where the verticals are called.
    let sockets: SocketDirectory
    /// The supervisor's control socket's folder.
    var runDirectory: String { folder + "/run" }

    private init(folder: String, supervisor: pid_t, sockets: SocketDirectory) {
        self.folder = folder
        self.supervisor = supervisor
        self.sockets = sockets
    }

    /// What went wrong starting a suite.
    struct StartError: Error, CustomStringConvertible {
        let description: String
    }

    /// A fresh temporary folder, `/tmp/vtfz.XXXXXX` (short: socket paths hold 107 bytes).
    static func temporaryFolder() throws -> String {
        var template = Array("/tmp/vtfz.XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else {
            throw StartError(description: "cannot make a temporary folder in /tmp: \(errnoText())")
        }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        chmod(path, 0o755)
        return path
    }

    /// Starts `svc-supervisor up --manifest MANIFEST --run-dir FOLDER/run` from `binDirectory`
    /// in `folder`; `endpoints` and `tls` say how the verticals are called when not on their sockets.
    static func start(
        manifest: String, folder: String, binDirectory: String, endpoints: [String: SocketEndpoint] = [:],
        tls: TLSFiles? = nil
    ) throws -> LiveSuite {
        var environment = ProcessEnvironment.current
        // Its own pointer (or none, when the caller turned pointers off): never /run/verticals.
        if environment[SuitePointer.folderVariable] == nil {
            environment[SuitePointer.folderVariable] = folder + "/pointer"
        }
        // The services run as the caller: the fuzzer measures the code, not the users (and a
        // user per vertical could not enter a folder only the caller may).
        environment[SupervisorSettings.serviceUsers.name] = environment[SupervisorSettings.serviceUsers.name] ?? "off"
        // The services carry the run's tag, so a leftover is found and killed.
        environment[SupervisorSettings.passEnvironment.name] =
            environment[SupervisorSettings.passEnvironment.name] ?? "VT_TEST_TAG VERTICALS_LOG_LEVEL OTEL_*"
        for key in environment.keys
        where key.hasPrefix(SocketDirectory.endpointVariablePrefix) || key.hasPrefix(DaemonSettings.tls.name) {
            environment[key] = nil
        }
        let program = binDirectory + "/svc-supervisor"
        let pid = try spawn(
            program, ["up", "--manifest", manifest, "--run-dir", folder + "/run"], environment: environment,
            output: folder + "/supervisor.log")
        var sockets = SocketDirectory(folder + "/run/sockets")
        sockets.endpoints = endpoints
        sockets.tls = tls
        return LiveSuite(folder: folder, supervisor: pid, sockets: sockets)
    }

    /// Every service's status, or nil when the supervisor does not answer.
    func status(_ client: ServiceClient) async -> [Supervisor.ServiceStatus]? {
        try? await client.call(Supervisor.status, Empty(), timeout: .seconds(5)).services
    }

    /// A client of the supervisor's control socket, on `loop`.
    func controlClient(loop: EventLoop) -> ServiceClient {
        ServiceClient(loop: loop, sockets: SocketDirectory(runDirectory))
    }

    /// Waits until every service is ready; false after `timeout` or when the supervisor exited.
    func waitUntilReady(_ client: ServiceClient, timeout: Duration = .seconds(60)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let services = await status(client), !services.isEmpty, services.allSatisfy(\.ready) { return true }
            if !supervisorRuns { return false }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// Whether the supervisor still runs.
    var supervisorRuns: Bool {
        var status: Int32 = 0
        return waitpid(supervisor, &status, WNOHANG) == 0
    }

    /// Stops the suite: `down` through the control socket, then SIGTERM, then SIGKILL.
    func stop(_ client: ServiceClient) async {
        _ = try? await client.call(Supervisor.down, Empty(), timeout: .seconds(30))
        for (signal, patience) in [(Int32(0), 30), (SIGTERM, 15), (SIGKILL, 5)] {
            if signal != 0 { kill(supervisor, signal) }
            let deadline = ContinuousClock.now + .seconds(patience)
            while ContinuousClock.now < deadline {
                var status: Int32 = 0
                let waited = waitpid(supervisor, &status, WNOHANG)
                if waited == supervisor || waited < 0 { return }
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// Removes `folder` and everything in it.
    static func remove(_ folder: String) {
        guard folder.hasPrefix("/tmp/vtfz."),
            let pid = try? spawn("/bin/rm", ["-rf", folder], environment: [:], output: "/dev/null")
        else { return }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    /// Starts `program` with `arguments`, standard input from /dev/null, output appended to `output`.
    static func spawn(_ program: String, _ arguments: [String], environment: [String: String], output: String) throws
        -> pid_t
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let started = ChildProcess.posixSpawn(program, arguments, environment: environment, actions: &actions)
        guard started.status == 0 else {
            throw StartError(description: "cannot start \(program): \(String(cString: strerror(started.status)))")
        }
        return started.pid
    }
}

/// The text of the current `errno`.
func errnoText() -> String { String(cString: strerror(errno)) }
