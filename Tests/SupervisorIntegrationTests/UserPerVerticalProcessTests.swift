import Glibc
import VerticalsClient
import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting
import VerticalsWire

/// svc-supervisor's engine as root with a user per vertical: real users, made by the
/// engine itself (`systemd-sysusers`) under a test-unique prefix and deleted afterwards.
///
/// The suite: `echo`, `caller` (declares `depends_on = ["echo"]`) and `stranger` (declares
/// nothing), all `vt-testd`, copied into a 0755 folder the service users can reach.
@Suite(
    .blocking,
    .serialized, .timeLimit(.minutes(3)),
    .enabled(if: geteuid() == 0, "needs root: creates users and runs each vertical as its own"))
struct UserPerVerticalProcessTests {
    /// Users and groups named `<prefix>…`, deleted when it goes: nothing is left on the host.
    final class TestAccounts {
        let prefix = "vtt-\(String(UInt32.random(in: 0...UInt32.max), radix: 36))-"
        var operatorGroup: String { prefix + "ops" }
        var users: ServiceUsers { ServiceUsers(prefix: prefix, operatorGroup: operatorGroup) }

        func uid(_ service: String) -> UInt32? { getpwnam(prefix + service).map { $0.pointee.pw_uid } }
        var operatorGID: UInt32? { getgrnam(operatorGroup).map { $0.pointee.gr_gid } }

        deinit {
            let directory = TemporaryDirectory()
            for name in Self.names(in: "/etc/passwd", prefix: prefix) {
                _ = try? runCommand("/usr/sbin/userdel", [name], in: directory)
            }
            for name in Self.names(in: "/etc/group", prefix: prefix) {
                _ = try? runCommand("/usr/sbin/groupdel", [name], in: directory)
            }
        }

        static func names(in file: String, prefix: String) -> [String] {
            (readFile(file) ?? "").split(separator: "\n").compactMap { line in
                let name = line.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
                return name.hasPrefix(prefix) ? name : nil
            }
        }
    }

    /// A 0755 folder holding `vt-testd` (the build folder may sit under a 0700 /root).
    static func reachableBin(in directory: TemporaryDirectory, mode: mode_t = 0o755) throws -> String {
        chmod(directory.path, 0o755)
        let bin = directory.file("bin")
        mkdir(bin, 0o755)
        let copied = try runCommand(
            "/bin/cp", ["\(DaemonProcess.productsDirectory)/vt-testd", "\(bin)/vt-testd"], in: directory)
        #expect(copied.status == 0, "cp vt-testd: \(copied.standardError)")
        chmod(bin, mode)
        return bin
    }

    /// What a test runs on: users under a test-unique prefix, a temporary folder holding `vt-testd`
    /// where those users reach it (in a folder of `binMode`), and the engine's run folder in it.
    struct Host {
        let accounts = TestAccounts()
        let directory = TemporaryDirectory()
        let bin: String
        var run: RunDirectory { RunDirectory(directory.file("run")) }

        init(binMode: mode_t = 0o755) throws {
            bin = try UserPerVerticalProcessTests.reachableBin(in: directory, mode: binMode)
        }

        /// Its accounts, folder and programs' folder, for a test that runs its own engine; the
        /// accounts and the folder last as long as the test holds them.
        var parts: (accounts: TestAccounts, directory: TemporaryDirectory, bin: String) { (accounts, directory, bin) }

        /// An engine over `services`, each run as its own user.
        func harness(_ services: [ServiceSpec]) throws -> EngineHarness {
            try EngineHarness(services, runDirectory: run.path, programDirectory: bin, serviceUsers: accounts.users)
        }

        /// An engine running vt-testd as `echo` under its own user, once it is ready.
        func startedEcho() async throws -> EngineHarness {
            let harness = try harness([.testd("echo")])
            try await harness.start()
            try await harness.waitFor("echo", .ready)
            return harness
        }
    }

    static func suite() -> [ServiceSpec] {
        var echo = ServiceSpec.testd("echo")
        // The refusal and the audit lines are logged at notice.
        echo.environment["VERTICALS_LOG_LEVEL"] = "notice"
        echo.environment["VERTICALS_AUDIT_OPERATIONS"] = "fail"
        return [echo, .testd("caller", dependsOn: ["echo"]), .testd("stranger")]
    }

    /// `/proc/PID/status` field `name` (e.g. "Uid"), its words.
    static func status(_ pid: Int32, _ name: String) -> [String] {
        let lines = (readFile("/proc/\(pid)/status") ?? "").split(separator: "\n")
        guard let line = lines.first(where: { $0.hasPrefix("\(name):") }) else { return [] }
        return line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    }

    /// The uid the engine made for service `name`, once its running process is seen to have it
    /// as its real uid.
    static func uidOfRunning(
        _ name: String, in harness: EngineHarness, _ accounts: TestAccounts,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> UInt32 {
        let uid = try #require(accounts.uid(name), sourceLocation: sourceLocation)
        let pid = Int32(try #require(try await harness.status(name).pid, sourceLocation: sourceLocation))
        #expect(status(pid, "Uid").first == String(uid), sourceLocation: sourceLocation)
        return uid
    }

    static func owner(_ path: String) -> UInt32? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_uid : nil
    }

    @Test func eachVerticalRunsAsItsOwnUser_withoutNewPrivileges_andOwnsItsStateFolder() async throws {
        let host = try Host()
        let (accounts, run) = (host.accounts, host.run)
        // Left by an earlier run as root: the service's user must own it afterwards.
        try RunDirectoryFixture.make(run.stateDirectory(for: "echo"))
        let leftover = run.stateDirectory(for: "echo") + "/left-by-root"
        close(open(leftover, O_CREAT | O_WRONLY, 0o600))
        #expect(Self.owner(leftover) == 0)

        let harness = try host.harness(Self.suite())
        try await harness.start()
        for name in ["echo", "caller", "stranger"] { try await harness.waitFor(name, .ready) }
        let operatorGID = try #require(accounts.operatorGID)
        var seen: Set<UInt32> = []
        for name in ["echo", "caller", "stranger"] {
            let uid = try #require(accounts.uid(name), "the engine created \(accounts.prefix)\(name)")
            let pid = Int32(try #require(try await harness.status(name).pid))
            #expect(Self.status(pid, "Uid") == Array(repeating: String(uid), count: 4), "\(name) runs as its user")
            #expect(Self.status(pid, "Groups") == [String(operatorGID)], "only the operator group is left")
            #expect(Self.status(pid, "NoNewPrivs") == ["1"])
            #expect(Self.owner(run.stateDirectory(for: name)) == uid)
            #expect(Self.owner(run.runtimeDirectory(for: name)) == uid)
            seen.insert(uid)
        }
        #expect(seen.count == 3, "three verticals, three uids")
        #expect(Self.owner(leftover) == accounts.uid("echo"), "files in the state folder belong to the vertical")
        // And `ps` says so, by name.
        let pid = try #require(try await harness.status("caller").pid)
        let ps = try runCommand("/bin/ps", ["-o", "user:32=", "-p", String(pid)], in: host.directory)
        #expect(
            ps.standardOutput.split(whereSeparator: { $0 == " " || $0 == "\n" }) == [
                Substring(accounts.prefix + "caller")
            ])
        await harness.shutdown()
    }

    @Test func undeclaredRoute_isRefused_andTheCalleeLogsTheMissingDependsOn() async throws {
        let host = try Host()
        let run = host.run
        let harness = try host.harness(Self.suite())
        try await harness.start()
        for name in ["echo", "caller", "stranger"] { try await harness.waitFor(name, .ready) }
        let loop = try EventLoop(name: "routes-client")
        defer { loop.shutdown() }
        let client = ServiceClient(
            loop: loop, sockets: SocketDirectory(run.socketDirectory), defaultTimeout: .seconds(10))

        // Root (an operator) may call each; `caller` declared echo, so its relay goes through.
        let declared = try await client.call(TestEcho(service: "caller").relay, .init(target: "echo", text: "declared"))
        #expect(declared.echoed.text == "declared")
        // `stranger` did not: refused by echo, naming it and what it lacks.
        let error = await #expect(throws: ServiceError.self) {
            try await client.call(TestEcho(service: "stranger").relay, .init(target: "echo", text: "undeclared"))
        }
        #expect(error?.code == .permissionDenied)
        #expect(error?.message.contains("vertical stranger") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("depends_on = [\"echo\"]") == true, "\(error?.message ?? "")")
        let logged = eventually(timeout: .seconds(10)) {
            (readFile(run.log(for: "echo")) ?? "").contains("vertical stranger, which does not declare echo")
        }
        #expect(
            logged, "echo's log names the caller and the missing depends_on: \(readFile(run.log(for: "echo")) ?? "")")

        // Privileged actions: one logfmt line each, with the caller and the outcome.
        _ = try await client.callRaw(
            service: "echo", operation: Daemon.setLogLevel.fullName,
            body: Daemon.LogLevelInput(level: .notice).encodedBody())
        _ = try? await client.call(TestEcho().fail, .init(code: .notFound, message: "audited"))
        let audited = eventually(timeout: .seconds(10)) {
            let log = readFile(run.log(for: "echo")) ?? ""
            return log.contains("audit service=echo operation=daemon.setLogLevel caller=root caller_uid=0 caller_gid=0")
                && log.contains("operation=echo.fail caller=root caller_uid=0")
                && log.contains("outcome=notFound")
        }
        #expect(audited, "audit lines: \(readFile(run.log(for: "echo")) ?? "")")
        client.close()
        await harness.shutdown()
    }

    /// A process of an unrelated uid that can reach the socket (it has the operator group as a
    /// supplementary group, so the file system lets it through) is refused by the daemon; the
    /// same uid with the operator group as its primary group is an operator, and served.
    @Test func unrelatedUID_isRefused_operatorGroupIsAdmitted() async throws {
        let host = try Host()
        let run = host.run
        let harness = try await host.startedEcho()
        let gid = try #require(host.accounts.operatorGID)
        // Connects, sends nothing, prints what the daemon says within a second (its refusal).
        let probe = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.settimeout(1.0); s.connect(sys.argv[1])
            try: sys.stdout.write(repr(s.recv(4096)))
            except socket.timeout: sys.stdout.write("no answer")
            """
        func connect(primaryGroup: String) throws -> String {
            let result = try runCommand(
                "/usr/bin/setpriv",
                [
                    "--reuid=4243", "--regid=\(primaryGroup)", "--groups=\(gid)", "/usr/bin/python3", "-c", probe,
                    run.socket(for: "echo"),
                ], in: host.directory, timeout: .seconds(20))
            #expect(result.status == 0, "probe: \(result.standardError)")
            return result.standardOutput
        }
        let stranger = try connect(primaryGroup: "4243")
        #expect(stranger.contains("uid 4243"), "refused, naming the uid: \(stranger)")
        #expect(stranger.contains("may not call echo"))
        let operatorAnswer = try connect(primaryGroup: String(gid))
        #expect(operatorAnswer == "no answer", "an operator is admitted and waited on: \(operatorAnswer)")
        await harness.shutdown()
    }

    /// A service added by a reload gets its user then, and runs as it.
    @Test func reloadAddingAService_makesItsUser() async throws {
        let host = try Host()
        let harness = try await host.startedEcho()
        #expect(host.accounts.uid("late") == nil)
        let result = try await harness.engine.apply(
            Manifest(services: [.testd("echo"), .testd("late", dependsOn: ["echo"])]))
        #expect(result.added == ["late"])
        try await harness.waitFor("late", .ready)
        _ = try await Self.uidOfRunning("late", in: harness, host.accounts)
        await harness.shutdown()
    }

    /// `svc-supervisor certs` writes each key for root alone (0600); a TLS service run as its own
    /// user must still read its own key, so the supervisor makes the key the service's, and the
    /// service serves mutual TLS (found by a suite split across two network namespaces).
    @Test func tlsService_readsItsOwnKey_asItsOwnUser() async throws {
        let host = try Host()
        let certs = try MintedCertificates.make(for: ["echo"], in: host.directory)
        #expect(Self.owner("\(certs)/echo/tls.key") == 0, "certs writes the key for root")

        var echo = ServiceSpec.testd("echo")
        echo.endpoint = .tcp(host: "127.0.0.1", port: try freeLoopbackPort())
        echo.certificates = certs
        let harness = try host.harness([echo])
        try await harness.start()
        try await harness.waitFor("echo", .ready)
        let uid = try await Self.uidOfRunning("echo", in: harness, host.accounts)
        #expect(Self.owner("\(certs)/echo/tls.key") == uid, "the key is the service's")
        await harness.shutdown()
    }

    /// A build the service users cannot reach (a checkout under a 0700 /root): refused before
    /// anything starts, naming the folder.
    @Test func unreachableExecutable_refusesToStart_namingTheFolder() async throws {
        let host = try Host(binMode: 0o700)
        let bin = host.bin
        let harness = try host.harness([.testd("echo")])
        let error = await #expect(throws: SupervisorError.self) { try await harness.start() }
        #expect(error?.code == .unreachable && error?.detail("service") == "echo", "\(error?.description ?? "")")
        #expect(error?.description.contains("\(bin) is not searchable") == true, "\(error?.description ?? "")")
        #expect(EngineHarness.processes(taggedWith: harness.tag).isEmpty, "nothing started")
        await harness.shutdown()
    }

    /// A build any user could replace (a folder of mode 0777): refused at `up` before anything
    /// starts, so no one else's code runs as the vertical.
    @Test func anExecutableOthersCouldReplace_refusesToStart_namingTheFolder() async throws {
        let host = try Host(binMode: 0o777)
        let harness = try host.harness([.testd("echo")])
        let error = await #expect(throws: SupervisorError.self) { try await harness.start() }
        #expect(error?.code == .notOwned && error?.detail("service") == "echo", "\(error?.description ?? "")")
        #expect(
            error?.description.contains("\(host.bin) may be written by any user") == true, "\(error?.description ?? "")"
        )
        #expect(EngineHarness.processes(taggedWith: harness.tag).isEmpty, "nothing started")
        await harness.shutdown()
    }

    /// A program given away after `up` is not started again: every start checks it anew.
    @Test func aProgramGivenAwayAfterUp_isNotStartedAgain() async throws {
        let host = try Host()
        let harness = try await host.startedEcho()
        _ = try await harness.engine.stopService("echo")
        try await harness.waitFor("echo", .stopped)
        chmod(host.bin, 0o777)
        _ = try? await harness.engine.startService("echo")
        let status = try await harness.status("echo")
        #expect(status.pid == nil, "started from a folder any user may write")
        #expect(status.lastExit.contains("\(host.bin) may be written by any user"), "\(status.lastExit)")
        await harness.shutdown()
    }

    /// `upgrade --executable` to a build another user owns is refused, and the old process serves on.
    @Test func anUpgradeToABuildAnotherUserOwns_isRefused_andTheOldProcessServesOn() async throws {
        let host = try Host()
        let harness = try await host.startedEcho()
        let before = try await harness.status("echo").pid

        let theirs = host.directory.file("theirs")
        mkdir(theirs, 0o755)
        let copied = try runCommand("/bin/cp", ["\(host.bin)/vt-testd", "\(theirs)/vt-testd"], in: host.directory)
        #expect(copied.status == 0)
        chown(theirs, 4242, 4242)
        let error = await #expect(throws: ServiceError.self) {
            _ = try await harness.engine.upgradeService("echo", executable: "\(theirs)/vt-testd")
        }
        #expect(error?.code == .invalidInput)
        #expect(error?.message.contains("\(theirs) belongs to uid 4242") == true, "\(error?.message ?? "")")
        #expect(try await harness.status("echo").pid == before, "the old process serves on")
        await harness.shutdown()
    }
}

/// Folders made before the engine runs, as an earlier run would have left them.
enum RunDirectoryFixture {
    static func make(_ path: String) throws {
        var current = ""
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST { throw HarnessTimeout("mkdir \(current)") }
        }
    }
}
