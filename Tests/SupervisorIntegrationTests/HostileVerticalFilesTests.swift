import GRDB
import Glibc
import VerticalsTestSupport
import Testing
import VerticalsCertificates
import VerticalsContract
import VerticalsStorage
import VerticalsSupervisorClient
import VerticalsTesting
import VerticalsWire

@testable import VerticalsSupervisor

/// Root trusts nothing a vertical says or leaves on disk: a hostile `vt-testd`
/// (`VT_TESTD_HOSTILE_FILES`, run as a vertical's own uid) tries each trick on the root
/// supervisor's file handling, and a sentinel file of root's outside the vertical's folders stays
/// as it was.
@Suite(
    .blocking,
    .serialized, .timeLimit(.minutes(3)),
    .enabled(if: geteuid() == 0, "needs root: runs a hostile vertical as another uid against root's file handling"))
struct HostileVerticalFilesTests {
    /// A uid and gid with no passwd entry for the hostile vertical run by hand (`setpriv`).
    static let hostileID: UInt32 = 4247

    /// A root-owned 0644 file `directory/sentinel` holding "root's file".
    static func sentinel(in directory: TemporaryDirectory) -> String {
        let path = directory.file("sentinel")
        let file = fopen(path, "w")
        fputs("root's file\n", file)
        fclose(file)
        chmod(path, 0o644)
        return path
    }

    /// The sentinel at `path` is there, root's, 0644, and holds what it held.
    static func untouched(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_uid == 0 && info.st_mode & 0o7777 == 0o644
            && info.st_mode & S_IFMT == S_IFREG && readFile(path) == "root's file\n"
    }

    static func owner(_ path: String) -> UInt32? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_uid : nil
    }

    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    /// Runs vt-testd from `bin` as the hostile uid with `behaviour`, its state folder `state`;
    /// it acts and exits.
    static func runHostile(_ behaviour: String, state: String, bin: String, in directory: TemporaryDirectory) throws {
        let id = String(hostileID)
        let result = try runCommand(
            "/usr/bin/setpriv",
            [
                "--reuid=\(id)", "--regid=\(id)", "--clear-groups", "/usr/bin/env", "STATE_DIRECTORY=\(state)",
                "VT_TESTD_HOSTILE_FILES=\(behaviour)", "\(bin)/vt-testd", "echo",
            ],
            in: directory, timeout: .seconds(20))
        #expect(result.status == 0, "the hostile vertical: \(result.standardError)")
    }

    /// `directory/state/echo`, the hostile uid's, 0700.
    static func hostileStateFolder(in directory: TemporaryDirectory) -> String {
        mkdir(directory.file("state"), 0o711)
        let state = directory.file("state/echo")
        mkdir(state, 0o700)
        chown(state, hostileID, hostileID)
        return state
    }

    // MARK: backup

    /// An engine running `echo` (vt-testd with `behaviour`) as its own user, and `svc-supervisor
    /// backup echo OUT` run as root against it: its result, OUT, and the run directory.
    static func backUp(
        hostile behaviour: String, in directory: TemporaryDirectory
    ) async throws -> (result: CommandResult, out: String, run: RunDirectory) {
        let accounts = UserPerVerticalProcessTests.TestAccounts()
        let bin = try UserPerVerticalProcessTests.reachableBin(in: directory)
        let run = RunDirectory(directory.file("run"))
        var echo = ServiceSpec.testd("echo")
        echo.environment["VT_TESTD_HOSTILE_FILES"] = behaviour
        let harness = try EngineHarness(
            [echo], runDirectory: run.path, programDirectory: bin, serviceUsers: accounts.users)
        try await harness.start()
        try await harness.waitFor("echo", .ready)
        let out = directory.file("out")
        let result = try runCommand("svc-supervisor", ["backup", "echo", out, "--run-dir", run.path], in: directory)
        await harness.shutdown()
        return (result, out, run)
    }

    @Test func backup_answeredWithAForeignPath_takesTheVerticalsOwnFile_andLeavesThePathAlone() async throws {
        let directory = TemporaryDirectory()
        let sentinel = Self.sentinel(in: directory)

        let (result, out, run) = try await Self.backUp(hostile: "backup-answer=\(sentinel)", in: directory)

        #expect(result.status == 0, "\(result.standardError)")
        #expect(Self.untouched(sentinel), "root moved or changed the file the vertical named")
        let taken = FolderEntries.names(in: out)
        #expect(taken.count == 1 && taken.first?.hasPrefix("echo-") == true, "\(taken)")
        let copy = "\(out)/\(taken.first ?? "")"
        #expect(readFile(copy) == "the vertical's real backup\n", "the file the vertical was asked to write")
        #expect(Self.owner(copy) == 0 && Self.mode(copy) == 0o600)
        #expect(FolderEntries.names(in: run.stateDirectory(for: "echo") + "/backups").isEmpty, "its copy is removed")
        #expect(result.standardError.contains("answered that its backup is \(sentinel)"), "\(result.standardError)")
    }

    @Test func backup_aLinkWhereTheBackupGoes_isRefused_andFollowedNowhere() async throws {
        let directory = TemporaryDirectory()
        let sentinel = Self.sentinel(in: directory)

        let (result, out, _) = try await Self.backUp(hostile: "backup-link=\(sentinel)", in: directory)

        #expect(result.status == 73, "\(result.standardOutput) \(result.standardError)")
        #expect(result.standardError.contains("a link is refused"), "\(result.standardError)")
        #expect(Self.untouched(sentinel))
        #expect(FolderEntries.names(in: out).isEmpty, "nothing was copied")
    }

    // MARK: restore

    /// A whole store of no vertical yet (application_id 0) at `path`, in WAL mode, holding `rows` rows.
    static func makeStore(_ path: String, rows: Int) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "CREATE TABLE t (x INTEGER)")
            for row in 0..<rows { try db.execute(sql: "INSERT INTO t (x) VALUES (?)", arguments: [row]) }
        }
        try queue.close()
    }

    @Test func restore_throughLinksThePlantedVerticalLeft_touchesNothingOutsideItsFolder() throws {
        let directory = TemporaryDirectory()
        let bin = try UserPerVerticalProcessTests.reachableBin(in: directory)
        let sentinel = Self.sentinel(in: directory)
        let state = Self.hostileStateFolder(in: directory)
        let store = "\(state)/echo.sqlite"
        try Self.makeStore(store, rows: 1)
        for file in FolderEntries.names(in: state) { chown("\(state)/\(file)", Self.hostileID, Self.hostileID) }
        let backup = directory.file("backup.sqlite")
        try Self.makeStore(backup, rows: 3)

        // The vertical leaves links to root's file where the lock, the -wal and the -shm go.
        try Self.runHostile("store-links=\(sentinel)", state: state, bin: bin, in: directory)
        #expect(Self.linkTarget("\(store).lock") == sentinel, "the vertical planted its links")

        let refused = #expect(throws: StoreError.self) { try SQLiteStore.restore(backup, to: store) }
        #expect(refused?.message.contains("symbolic link") == true, "\(refused?.message ?? "")")
        #expect(Self.untouched(sentinel), "the lock file's link was followed")

        // With the lock's link gone, the store is read and kept as its owner: the -wal and -shm
        // links reach nothing the vertical could not write itself.
        unlink("\(store).lock")
        _ = try? SQLiteStore.restore(backup, to: store)
        #expect(Self.untouched(sentinel), "the -wal or -shm link was followed as root")
        #expect(Self.owner(store) == Self.hostileID, "the restored store is the vertical's, made as its owner")
        #expect(Self.mode(store) == 0o600)
        let rows = try DatabaseQueue(path: store).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") }
        #expect(rows == 3, "the backup is in place")
    }

    /// The tables of the store at `path`.
    static func tables(in path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
    }

    @Test func upgradeRollback_ofABackupNamedOutsideTheStateFolder_putsNothingBack() async throws {
        let harness = try EngineHarness([EngineProcessTests.Upgrade.stored("fragile")])
        try await harness.start()
        try await harness.waitFor("fragile", .ready)
        // A whole store of no vertical yet, outside the state folder: it would pass every check.
        let foreign = harness.directory.file("foreign.sqlite")
        try Self.makeStore(foreign, rows: 5)
        let hostile = EngineProcessTests.Upgrade.build(
            harness.directory, "hostile-build",
            [
                "VT_TESTD_MIGRATIONS": "1", "VT_TESTD_FAIL_AFTER_STORE": "1",
                "VT_TESTD_HOSTILE_FILES": "upgrade-backup=\(foreign)",
            ])

        let error = await #expect(throws: ServiceError.self) {
            try await harness.engine.upgradeService("fragile", executable: hostile)
        }

        #expect(error?.message.contains("could not be put back") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("is not a file of") == true, "\(error?.message ?? "")")
        let store = harness.run.stateDirectory(for: "fragile") + "/fragile.sqlite"
        let tables = try Self.tables(in: store)
        #expect(!tables.contains("t"), "the foreign store was put in place: \(tables)")
        #expect(try EngineProcessTests.Upgrade.migrations(harness, "fragile") == ["v1"])
        await harness.shutdown()
    }

    // MARK: chown

    @Test func chownTree_ofAFolderSwappedForALink_orAHardLinkToRootsFile_leavesRootsFilesAlone() throws {
        let directory = TemporaryDirectory()
        let bin = try UserPerVerticalProcessTests.reachableBin(in: directory)
        let outside = directory.file("outside")
        mkdir(outside, 0o755)
        let sentinel = Self.sentinel(in: directory)
        let state = Self.hostileStateFolder(in: directory)
        try Self.runHostile("folder-link=\(outside)", state: state, bin: bin, in: directory)
        #expect(Self.linkTarget("\(state)/sub") == outside, "the vertical swapped its folder for a link")
        // A host without protected_hardlinks lets a vertical name root's file in its own folder.
        #expect(link(sentinel, "\(state)/hard") == 0)

        try TreeOwnership.give(state, uid: Self.hostileID, gid: Self.hostileID)

        #expect(Self.owner(outside) == 0, "the link's target was given away")
        #expect(Self.owner(sentinel) == 0, "root's file, hard-linked in, was given away")
        #expect(Self.owner("\(state)/sub") == Self.hostileID, "the link itself is the vertical's")
        unlink("\(state)/hard")
    }

    // MARK: cgroup

    @Test(.enabled(if: EngineProcessTests.Limits.memoryCgroup, "no usable memory cgroup on this host"))
    func stop_killsAProcessThatLeftTheGroup_throughTheServicesCgroup() async throws {
        let (accounts, directory, bin) = try UserPerVerticalProcessTests.Host().parts
        var echo = ServiceSpec.testd("echo")
        echo.environment["VT_TESTD_HOSTILE_FILES"] = "escape"
        echo.limits = ResourceLimits(memoryBytes: 256 << 20)
        let harness = try EngineHarness(
            [echo], runDirectory: directory.file("run"), programDirectory: bin, serviceUsers: accounts.users)
        try await harness.start()
        try await harness.waitFor("echo", .ready)
        let main = Int32(try #require(try await harness.status("echo").pid))
        // `setsid -f` forks and returns: its child may exec `sleep` a moment after the vertical is ready.
        var escaped: [Int32] = []
        let started = eventually(timeout: .seconds(10)) {
            escaped = EngineHarness.processes(taggedWith: harness.tag).filter {
                readFile("/proc/\($0)/comm") == "sleep\n"
            }
            return escaped.count == 1
        }
        try #require(started, "the vertical started one process of its own")
        #expect(getpgid(escaped[0]) != getpgid(main), "it left the service's process group")

        _ = try await harness.engine.stopService("echo")

        let gone = eventually(timeout: .seconds(10)) { !EngineHarness.isAlive(escaped[0]) }
        #expect(gone, "the process that left the group outlived its service")
        await harness.shutdown()
    }

    @Test(.enabled(if: EngineProcessTests.Limits.memoryCgroup, "no usable memory cgroup on this host"))
    func up_killsWhatADeadSupervisorLeftInAServicesCgroup() async throws {
        let directory = TemporaryDirectory()
        let parent = try #require(Cgroups().memory?.parent)
        // A supervisor that is gone: the pid of a process that has exited.
        let gone = try runCommand("/bin/sh", ["-c", "echo $$"], in: directory)
        let deadPID = try #require(Int32(gone.standardOutput.split(separator: "\n").first ?? ""))
        let folder = "\(parent)/vt-\(deadPID)-0-echo"
        try #require(mkdir(folder, 0o755) == 0, "cannot make \(folder)")
        defer { rmdir(folder) }
        // What it left: a process outside any group the pid files name.
        let started = try runCommand(
            "/bin/sh", ["-c", "setsid /bin/sleep 300 </dev/null >/dev/null 2>&1 & echo $!"], in: directory)
        let leftover = try #require(Int32(started.standardOutput.split(separator: "\n").first ?? ""))
        defer { kill(leftover, SIGKILL) }
        let joined = fopen("\(folder)/cgroup.procs", "w")
        fputs("\(leftover)\n", joined)
        fclose(joined)
        try #require(readFile("\(folder)/cgroup.procs")?.contains("\(leftover)") == true)

        var echo = ServiceSpec.testd("echo")
        echo.limits = ResourceLimits(memoryBytes: 256 << 20)
        let harness = try EngineHarness([echo])
        try await harness.start()
        try await harness.waitFor("echo", .ready)

        #expect(
            eventually(timeout: .seconds(10)) { !EngineHarness.isAlive(leftover) }, "the leftover outlived the new up")
        #expect(eventually(timeout: .seconds(10)) { access(folder, F_OK) != 0 }, "the dead supervisor's cgroup stays")
        await harness.shutdown()
    }

    // MARK: run folder

    @Test func runFolderOfAnotherUser_withAPlantedLink_isRefused_beforeAnythingIsWritten() async throws {
        let directory = TemporaryDirectory()
        chmod(directory.path, 0o755)
        let outside = directory.file("outside")
        mkdir(outside, 0o755)
        let run = directory.file("run")
        mkdir(run, 0o755)
        chown(run, Self.hostileID, Self.hostileID)
        let planted = try runCommand(
            "/usr/bin/setpriv",
            [
                "--reuid=\(Self.hostileID)", "--regid=\(Self.hostileID)", "--clear-groups", "/bin/ln", "-s", outside,
                "\(run)/pids",
            ],
            in: directory)
        #expect(planted.status == 0, "\(planted.standardError)")
        let harness = try EngineHarness([.testd("echo")], runDirectory: run)

        let error = await #expect(throws: SupervisorError.self) { try await harness.start() }

        #expect(error?.code == .notOwned && error?.detail("path") == run, "\(error?.description ?? "")")
        #expect(FolderEntries.names(in: outside).isEmpty, "the supervisor wrote through the planted link")
        #expect(EngineHarness.processes(taggedWith: harness.tag).isEmpty, "nothing started")
        await harness.shutdown()
    }

    // MARK: certs

    @Test func certs_intoAServicesFolderWithAPlantedLink_replacesTheLink_andKeepsFoldersPrivate() throws {
        let directory = TemporaryDirectory()
        chmod(directory.path, 0o755)
        let sentinel = Self.sentinel(in: directory)
        let certs = try MintedCertificates.make(for: ["echo"], in: directory)
        #expect(Self.mode(certs) == 0o711, "DIR: passed through, not listed")
        #expect(Self.mode("\(certs)/echo") == 0o700 && Self.mode("\(certs)/operator") == 0o700, "key folders are 0700")
        // `up` gives the folder to the service; the service plants a link where its key goes.
        chown("\(certs)/echo", Self.hostileID, Self.hostileID)
        let planted = try runCommand(
            "/usr/bin/setpriv",
            [
                "--reuid=\(Self.hostileID)", "--regid=\(Self.hostileID)", "--clear-groups", "/bin/ln", "-sf", sentinel,
                "\(certs)/echo/tls.key",
            ], in: directory)
        #expect(planted.status == 0, "\(planted.standardError)")

        let manifest = directory.file("certs.toml")
        let again = try runCommand(
            "svc-supervisor", ["certs", certs, "--manifest", manifest, "--force"], in: directory)

        #expect(again.status == 0, "\(again.standardError)")
        #expect(Self.untouched(sentinel), "the key was written through the link")
        var info = stat()
        #expect(lstat("\(certs)/echo/tls.key", &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
        #expect(info.st_uid == Self.hostileID && info.st_mode & 0o777 == 0o600, "the new key is the service's, 0600")
    }

    /// Where the link at `path` points, or nil.
    static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = Glibc.readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A store is created owner-only whatever the umask, and SQLite gives its `-wal` and `-shm` the same.
@Suite(.blocking)
struct StoreModeTests {
    @Test func storeAndItsWAL_areOwnerOnly_underUmaskZero() throws {
        let directory = TemporaryDirectory()
        let state = directory.file("state")
        let result = try runCommand(
            "/bin/sh", ["-c", "umask 000; exec \"$0\" echo", "\(DaemonProcess.productsDirectory)/vt-testd"],
            environment: [
                "STATE_DIRECTORY": state, "VERTICALS_SOCKET_DIR": directory.file("sockets"), "VT_TESTD_MIGRATIONS": "1",
                "VT_TESTD_FAIL_AFTER_STORE": "1",
            ], in: directory)
        #expect(result.status != 0, "it fails after opening its store, as asked")
        var info = stat()
        #expect(stat("\(state)/echo.sqlite", &info) == 0, "the store was made: \(result.standardError)")
        for suffix in ["", "-wal", "-shm"] where stat("\(state)/echo.sqlite\(suffix)", &info) == 0 {
            #expect(info.st_mode & 0o777 == 0o600, "echo.sqlite\(suffix) is \(String(info.st_mode & 0o777, radix: 8))")
        }
    }
}
