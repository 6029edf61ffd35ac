import Glibc
import IOInterface
import Testing
import VerticalsClient
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsSupervisorClient
import VerticalsTesting
import VerticalsWire

/// Identity hashes passwords in compute processes of its own (`ComputeProcesses`): each in a
/// session of its own, below the daemon, replaced when one dies, and gone with the daemon.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct IdentityComputeProcessTests {
    static let password = "correct horse battery staple"

    @Test func loginsHashInALowerSession_aKilledWorkerIsReplaced_andEveryWorkerEndsWithIdentity() async throws {
        let directory = TemporaryDirectory()
        var environment = VerticalTestEnvironment.variables(
            for: "identity", sockets: directory.file("sockets"), runDirectory: directory.path)
        environment.merge(ReferenceSuiteSettings.fastPasswordHashing) { $1 }
        environment["VERTICALS_COMPUTE_NICE"] = "7"
        let daemon = try DaemonProcess("svc-identity", environment: environment)
        defer { daemon.stop() }
        let loop = try EventLoop(name: "test-client")
        let client = ServiceClient(
            loop: loop, sockets: SocketDirectory(directory.file("sockets")), defaultTimeout: .seconds(30))
        defer {
            client.close()
            loop.shutdown()
        }
        let registered = await eventuallyAsync(timeout: .seconds(90)) {
            _ = try await client.call(
                Identity.register, .init(email: "ada@example.org", password: Self.password, displayName: "Ada"))
            return true
        }
        try #require(registered, "svc-identity never registered a user")
        _ = try await client.call(Identity.login, .init(email: "ada@example.org", password: Self.password))

        let workers = Self.children(of: daemon.pid)
        try #require(!workers.isEmpty, "no compute process under svc-identity \(daemon.pid)")
        let daemonProcess = try #require(ProcessStat(pid: daemon.pid))
        for worker in workers {
            let stat = try #require(ProcessStat(pid: worker))
            #expect(readFile("/proc/\(worker)/cmdline")?.contains(ComputeProcesses.flag) == true)
            #expect(stat.session == worker && stat.session != daemonProcess.session, "a session of its own")
            #expect(stat.nice >= daemonProcess.nice + 7, "below the daemon: \(stat.nice) against \(daemonProcess.nice)")
            // Not dumpable: its /proc files are root's, so no process of its user reads its memory
            // (as root, everything is root's, and there is nothing to tell).
            if getuid() != 0 {
                #expect(Self.owner(of: "/proc/\(worker)/mem") == 0, "worker \(worker) is dumpable")
            }
            // Where the kernel has autogroups (this process has one), the worker's own is lowered.
            if access("/proc/self/autogroup", F_OK) == 0 {
                let group = readFile("/proc/\(worker)/autogroup") ?? "unreadable"
                #expect(group.hasSuffix(" nice 7\n"), "its autogroup lowered: \(group)")
            }
        }

        // A worker killed while idle: the next login is answered by a new one, and the dead one reaped.
        let killed = workers[0]
        #expect(kill(killed, SIGKILL) == 0)
        #expect(await eventuallyAsync { ProcessStat(pid: killed)?.state == "Z" })
        _ = try await client.call(Identity.login, .init(email: "ada@example.org", password: Self.password))
        #expect(ProcessStat(pid: killed) == nil, "the killed worker was reaped")
        let replaced = Self.children(of: daemon.pid)
        #expect(!replaced.isEmpty && !replaced.contains(killed), "\(replaced)")

        // A wrong password is still refused through the workers.
        do {
            _ = try await client.call(Identity.login, .init(email: "ada@example.org", password: "wrong horse"))
            Issue.record("a wrong password logged in")
        } catch {
            #expect(error.code == .unauthenticated, "\(error)")
        }

        daemon.signal(SIGKILL)
        _ = daemon.waitForExit()
        for worker in replaced {
            #expect(
                await eventuallyAsync { ProcessStat(pid: worker).map { $0.state == "Z" } ?? true },
                "worker \(worker) outlived identity")
        }
    }

    /// The owner of `path`, or nil when it cannot be read.
    static func owner(of path: String) -> uid_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_uid : nil
    }

    /// The live processes whose parent is `pid`.
    static func children(of pid: pid_t) -> [pid_t] {
        FolderEntries.names(in: "/proc").compactMap { pid_t($0) }.filter { child in
            guard let stat = ProcessStat(pid: child) else { return false }
            return stat.parent == pid && stat.state != "Z"
        }
    }
}

/// The fields of `/proc/PID/stat` these tests read.
struct ProcessStat: Equatable {
    let state: String
    let parent: pid_t
    let session: pid_t
    let nice: Int

    init?(pid: pid_t) {
        guard let fields = DaemonProcess.statFields(of: pid), fields.count > 16, let parent = pid_t(fields[1]),
            let session = pid_t(fields[3]), let nice = Int(fields[16])
        else { return nil }
        state = String(fields[0])
        self.parent = parent
        self.session = session
        self.nice = nice
    }
}
