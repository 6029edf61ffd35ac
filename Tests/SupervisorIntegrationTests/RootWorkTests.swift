import GRDB
import Glibc
import Synchronization
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsWire
import VerticalsStorage
import VerticalsSupervisorClient
import VerticalsTesting

@testable import VerticalsSupervisor
import VerticalsSharedTesting

/// Root works in a folder a vertical can write only as that vertical, through one way in
/// (``FolderOwnerAccess``): attacked as the vertical's uid would, by planting links, hard links,
/// FIFOs and sparse files where root reads, keeps or walks.
@Suite(.blocking, .serialized, .timeLimit(.minutes(3)))
struct RootWorkTests {
    static let vertical = HostileVerticalFilesTests.hostileID
    static var isRoot: Bool { geteuid() == 0 }

    /// A root-only (0600) SQLite store holding `secret`, in `directory`.
    static func rootOnlyStore(in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("root-only.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE secret (x TEXT)")
            try db.execute(sql: "INSERT INTO secret (x) VALUES ('root only')")
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
        }
        try queue.close()
        chmod(path, 0o600)
        return path
    }

    /// A folder anyone may enter, holding a ``rootOnlyStore(in:)`` (`secret`) and the vertical's
    /// state folder (`state`), where the vertical plants what it plants.
    static func plantingGround() throws -> (directory: TemporaryDirectory, secret: String, state: String) {
        let directory = TemporaryDirectory()
        chmod(directory.path, 0o755)
        let secret = try rootOnlyStore(in: directory)
        return (directory, secret, HostileVerticalFilesTests.hostileStateFolder(in: directory))
    }

    @Test(.enabled(if: isRoot, "needs root: plants files as another uid where root opens one"))
    func openFile_throughALinkAHardLinkOrAFIFO_isRefused_andNeverBlocks() throws {
        let (directory, secret, state) = try Self.plantingGround()
        symlink(secret, "\(state)/link.sqlite")
        link(secret, "\(state)/hard.sqlite")
        mkfifo("\(state)/fifo.sqlite", 0o600)
        symlink(directory.path, "\(state)/folder")
        // Root's file moved into the vertical's folder: one name, plain, but not the vertical's to read.
        let moved = "\(state)/moved.sqlite"
        link(secret, moved)
        unlink(secret)
        let started = ContinuousClock.now
        for planted in ["link.sqlite", "hard.sqlite", "fifo.sqlite", "folder/root-only.sqlite", "moved.sqlite"] {
            #expect(throws: StoreError.self, "\(planted) was opened") {
                let fd = try FolderOwnerAccess.openFile("\(state)/\(planted)")
                close(fd)
            }
        }
        #expect(ContinuousClock.now - started < .seconds(5), "the FIFO blocked the open")
        // The vertical's own plain file opens.
        let own = "\(state)/own.sqlite"
        close(open(own, O_WRONLY | O_CREAT | O_EXCL, 0o600))
        chown(own, Self.vertical, Self.vertical)
        let fd = try FolderOwnerAccess.openFile(own)
        close(fd)
    }

    @Test(.enabled(if: isRoot, "needs root: switches a thread to another uid"))
    func run_asAFoldersOwner_dropsTheSupplementaryGroups_onThatThreadAlone() throws {
        let directory = TemporaryDirectory()
        chmod(directory.path, 0o755)
        // A file group 0 may write: root's groups would reach it, the vertical's user cannot.
        let shared = directory.file("group-zero")
        close(open(shared, O_WRONLY | O_CREAT | O_EXCL, 0o660))
        chown(shared, 0, 0)
        setgroups(1, [0])
        let before = getgroups(0, nil)
        let inside = try FolderOwnerAccess.run(as: (Self.vertical, Self.vertical)) {
            (groups: getgroups(0, nil), opened: open(shared, O_RDWR | O_CLOEXEC))
        }
        if inside.opened >= 0 { close(inside.opened) }
        #expect(inside.groups == 0, "the thread kept supplementary groups as the vertical")
        #expect(inside.opened < 0, "a file of group 0 was opened as the vertical")
        #expect(getgroups(0, nil) == before, "the thread's groups came back")
    }

    @Test(.enabled(if: isRoot, "needs root: restores into a folder another uid owns"))
    func restore_keepsTheReplacedStoreInRootsFolder_andRefusesALinkedSource() throws {
        let (directory, secret, state) = try Self.plantingGround()
        let store = "\(state)/echo.sqlite"
        try HostileVerticalFilesTests.makeStore(store, rows: 1)
        for file in FolderEntries.names(in: state) { chown("\(state)/\(file)", Self.vertical, Self.vertical) }
        let kept = directory.file("replaced")
        mkdir(kept, 0o700)

        // The vertical names a link to root's store, and a FIFO, as the backup to put back.
        symlink(secret, "\(state)/backup-link.sqlite")
        mkfifo("\(state)/backup-fifo.sqlite", 0o600)
        for planted in ["backup-link.sqlite", "backup-fifo.sqlite"] {
            #expect(throws: StoreError.self) {
                try SQLiteStore.restore("\(state)/\(planted)", to: store, keepIn: kept, fileInFolder: true)
            }
        }
        let rows = try DatabaseQueue(path: store).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") }
        #expect(rows == 1, "the store was replaced by what the link named")

        // A good backup goes in; the store it replaces is kept in root's folder, not the vertical's.
        let backup = directory.file("backup.sqlite")
        try HostileVerticalFilesTests.makeStore(backup, rows: 3)
        let keptPath = try #require(try SQLiteStore.restore(backup, to: store, keepIn: kept))
        #expect(keptPath.hasPrefix(kept + "/"), "kept at \(keptPath)")
        #expect(HostileVerticalFilesTests.owner(keptPath) == 0)
        #expect(
            !FolderEntries.names(in: state).contains { $0.contains("before-restore") }, "kept in the vertical's folder")
        let keptRows = try DatabaseQueue(path: keptPath).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM t")
        }
        #expect(keptRows == 1, "the replaced store is kept whole")
        #expect(HostileVerticalFilesTests.owner(store) == Self.vertical)
    }

    @Test func take_copiesASparseBackupSparse_andRefusesOneOverTheBound() throws {
        let directory = TemporaryDirectory()
        let state = directory.file("state")
        mkdir(state, 0o700)
        mkdir("\(state)/backups", 0o700)
        let out = directory.file("out")
        mkdir(out, 0o700)
        func sparse(_ name: String, data: Int) {
            let fd = open("\(state)/backups/\(name)", O_WRONLY | O_CREAT | O_EXCL, 0o600)
            ftruncate(fd, 256 << 20)
            let bytes = [UInt8](repeating: 7, count: data)
            _ = pwrite(fd, bytes, bytes.count, 0)
            close(fd)
        }
        sparse("small.sqlite", data: 4096)
        let taken = try BackupFile.take(
            "small.sqlite", fromStateFolder: state, intoFolder: out, as: "echo.sqlite", maxBytes: 1 << 20)
        var info = stat()
        #expect(stat(taken.path, &info) == 0 && info.st_size == 256 << 20, "the copy keeps its length")
        #expect(Int(info.st_blocks) * 512 < 1 << 20, "the copy is dense: \(info.st_blocks) blocks")

        sparse("large.sqlite", data: 2 << 20)
        let refused = #expect(throws: StoreError.self) {
            try BackupFile.take(
                "large.sqlite", fromStateFolder: state, intoFolder: out, as: "echo.sqlite", maxBytes: 1 << 20)
        }
        #expect(refused?.message.contains("VERTICALS_BACKUP_MAX_BYTES") == true, "\(refused?.message ?? "")")
        #expect(access("\(state)/backups/large.sqlite", F_OK) == 0, "the refused backup is left where it is")
        #expect(FolderEntries.names(in: out) == ["echo.sqlite"], "nothing more was written")
    }

    @Test(.enabled(if: isRoot, "needs root: gives a folder to a service's own user"))
    func ownershipWalk_ofFiftyThousandEntries_leavesStatusAnswered() async throws {
        let (accounts, directory, bin) = try UserPerVerticalProcessTests.Host().parts
        let run = directory.file("run")
        let state = "\(run)/state/echo"
        mkdir(run, 0o755)
        mkdir("\(run)/state", 0o711)
        mkdir(state, 0o700)
        for index in 0..<50_000 { close(open("\(state)/f\(index)", O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)) }
        let harness = try EngineHarness(
            [.testd("echo")], runDirectory: run, programDirectory: bin, serviceUsers: accounts.users)
        // Status asked again and again from before the start until the service is ready, each
        // time the files show the walk under way (some entries already given away from root, the
        // top, which is given last, not yet). On the loop, such a question would wait for the
        // walk's end and the spawn that follows it in the same turn: its answer would name a
        // process. Off the loop, it is answered while the service has none yet.
        let engine = harness.engine
        let samples = stride(from: 0, to: 50_000, by: 1_567).map { "\(state)/f\($0)" }
        let walking: @Sendable () -> Bool = {
            HostileVerticalFilesTests.owner(state) == 0 && samples.contains { HostileVerticalFilesTests.owner($0) != 0 }
        }
        // The asker runs on a thread of its own, not the shared pool, which a full parallel run
        // on two loaded cores can keep from it for longer than the walk lasts; and it is asking
        // before the start.
        let askerLoop = try EventLoop(name: "status-asker")
        let askerIsAsking = AtomicFlag()
        defer { askerLoop.shutdown() }
        let asking = Task(executorPreference: askerLoop) { () -> [Duration] in
            var answered: [Duration] = []
            while !Task.isCancelled {
                let underWay = walking()
                let asked = ContinuousClock.now
                let answer = try? await engine.status()
                askerIsAsking.value.store(true, ordering: .releasing)
                guard let status = answer?.first(where: { $0.name == "echo" }) else {
                    await Task.yield()
                    continue
                }
                if status.state == .ready { break }
                if underWay && status.pid == nil && status.state == .starting {
                    answered.append(ContinuousClock.now - asked)
                }
                await Task.yield()
            }
            return answered
        }
        defer { asking.cancel() }
        #expect(eventually { askerIsAsking.value.load(ordering: .acquiring) }, "the asker never asked")
        let began = ContinuousClock.now
        try await harness.start()
        try await harness.waitFor("echo", .ready)
        let duringTheWalk = await asking.value
        let span = ContinuousClock.now - began
        try #require(
            !duringTheWalk.isEmpty, "no status asked while the walk was under way was answered before it ended")
        let slowest = duringTheWalk.max() ?? .zero
        let median = duringTheWalk.sorted()[duringTheWalk.count / 2]
        let uid = try #require(accounts.uid("echo"))
        #expect(HostileVerticalFilesTests.owner("\(state)/f49999") == uid)
        #expect(HostileVerticalFilesTests.owner(state) == uid)
        // How long each answer took is printed, not asserted: a loaded machine decides it.
        print(
            "ownership walk of 50000 entries: \(duringTheWalk.count) status answers during it, median \(median), slowest \(slowest); start to ready \(span)"
        )
        await harness.shutdown()
    }

    /// A store reader in `bin` that records, in `record/runs`, the uid it runs as and what it is
    /// asked ("check", "checkpoint"), and in `record/sessions` its pid, session and terminal,
    /// then is the real one. Returns its path and the record folder (`directory/record`).
    static func recordingStoreReader(in directory: TemporaryDirectory, bin: String) -> (String, String) {
        let record = directory.file("record")
        mkdir(record, 0o777)
        chmod(record, 0o777)
        let reader = "\(bin)/store-reader"
        let script = """
            #!/bin/sh
            echo "$(/usr/bin/id -u) $2" >> \(record)/runs
            echo "$$ $(/usr/bin/cut -d' ' -f6,7 /proc/$$/stat)" >> \(record)/sessions
            exec \(DaemonProcess.productsDirectory)/svc-supervisor-engine "$@"

            """
        #expect(writeFile(script, to: reader))
        chmod(reader, 0o755)
        return (reader, record)
    }

    /// The vertical's bytes, the backup to check and the store to keep, are read by SQLite in a
    /// child as the vertical's user (``StoreReaderChild``), never in root's process, and in a
    /// session of its own: the reader here records who runs it and where, then is the real one.
    @Test(.enabled(if: isRoot, "needs root: runs a service as its own user"))
    func restore_readsTheVerticalsStores_inAChildAsTheVerticalsUser() async throws {
        let (accounts, directory, bin) = try UserPerVerticalProcessTests.Host().parts
        let (reader, record) = Self.recordingStoreReader(in: directory, bin: bin)
        let harness = try EngineHarness(
            [.testd("echo")], runDirectory: directory.file("run"), programDirectory: bin, serviceUsers: accounts.users
        ) { $0.storeReader = reader }
        try await harness.start()
        try await harness.waitFor("echo", .ready)
        let uid = try #require(accounts.uid("echo"))
        _ = try await harness.engine.stopService("echo")
        try await harness.waitFor("echo", .stopped)
        let state = RunDirectory(directory.file("run")).stateDirectory(for: "echo")
        let store = state + "/echo.sqlite"
        try HostileVerticalFilesTests.makeStore(store, rows: 1)
        for file in FolderEntries.names(in: state) {
            chown("\(state)/\(file)", uid, uid)
        }
        let backup = directory.file("backup.sqlite")
        try HostileVerticalFilesTests.makeStore(backup, rows: 3)

        let result = try await harness.engine.restoreStore("echo", from: backup)

        let runs = (readFile("\(record)/runs") ?? "").split(separator: "\n").map(String.init)
        #expect(runs == ["\(uid) check", "\(uid) checkpoint"], "\(runs)")
        // A session of its own and no controlling terminal, as the vertical has: nothing it can
        // type into root's terminal.
        for line in (readFile("\(record)/sessions") ?? "").split(separator: "\n") {
            let words = line.split(separator: " ")
            #expect(words.count == 3 && words[0] == words[1] && words[2] == "0", "pid, session, tty: \(line)")
        }
        let kept = try #require(result.kept)
        let keptRows = try await DatabaseQueue(path: kept).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM t")
        }
        #expect(keptRows == 1, "the replaced store is kept whole")
        #expect(access(kept + "-wal", F_OK) != 0, "the kept store is one file")
        let rows = try await DatabaseQueue(path: store).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t")
        }
        #expect(rows == 3)
        #expect(!FolderEntries.names(in: state).contains { $0.contains(".keep-") })

        // Another vertical's backup is refused from its header, before a byte of it reaches the
        // folder or a reader runs.
        let foreign = directory.file("ledger-backup.sqlite")
        try HostileVerticalFilesTests.makeStore(foreign, rows: 2)
        try await DatabaseQueue(path: foreign).write { db in
            try db.execute(sql: "PRAGMA application_id = \(StoreOwner("ledger").applicationID)")
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
        }
        let other = await #expect(throws: ServiceError.self) {
            _ = try await harness.engine.restoreStore("echo", from: foreign)
        }
        #expect(
            other?.message.contains("another vertical's") == true || other?.message.contains("not echo's") == true,
            "\(other?.message ?? "")")
        #expect(
            (readFile("\(record)/runs") ?? "").split(separator: "\n").count == 2,
            "a reader ran for another vertical's backup")

        // A damaged backup is refused with the child's reason, and the store stays.
        let damaged = directory.file("damaged.sqlite")
        #expect(writeFile(String(repeating: "not a store ", count: 400), to: damaged))
        let refused = await #expect(throws: ServiceError.self) {
            _ = try await harness.engine.restoreStore("echo", from: damaged)
        }
        #expect(refused?.code == .invalidInput)
        #expect(refused?.message.contains("is not an SQLite store") == true, "\(refused?.message ?? "")")
        await harness.shutdown()
    }

    @Test(.enabled(if: isRoot, "needs root: runs a service as its own user"))
    func upgrade_toAnExecutableTheServicesUserCannotReach_isRefused_beforeAnythingStarts() async throws {
        let (accounts, directory, bin) = try UserPerVerticalProcessTests.Host().parts
        // Root's own copy of the program, in a folder only root may enter.
        let hidden = directory.file("root-only")
        mkdir(hidden, 0o700)
        link("\(bin)/vt-testd", "\(hidden)/vt-testd")
        let harness = try EngineHarness(
            [.testd("echo")], runDirectory: directory.file("run"), programDirectory: bin, serviceUsers: accounts.users)
        try await harness.start()
        try await harness.waitFor("echo", .ready)
        let pid = try await harness.status("echo").pid

        let refused = await #expect(throws: ServiceError.self) {
            _ = try await harness.engine.upgradeService("echo", executable: "\(hidden)/vt-testd")
        }
        #expect(refused?.code == .invalidInput, "\(String(describing: refused))")
        #expect(refused?.message.contains(hidden) == true, "\(refused?.message ?? "")")
        #expect(try await harness.status("echo").pid == pid, "the service was touched")
        await harness.shutdown()
    }

    @Test func aService_receivesNoneOfTheSupervisorsEnvironment_butWhatIsAllowed() async throws {
        // The operator's TLS files and a secret in the shell that ran `up`.
        setenv("VERTICALS_TLS_KEY", "/etc/verticals/certs/operator/tls.key", 1)
        setenv("VT_ROOTWORK_SECRET", "the operator's", 1)
        defer {
            unsetenv("VERTICALS_TLS_KEY")
            unsetenv("VT_ROOTWORK_SECRET")
        }
        let directory = TemporaryDirectory()
        let seen = directory.file("seen")
        var spec = ServiceSpec.script("dump", "env > \(seen); exec sleep 30")
        spec.environment["FROM_THE_MANIFEST"] = "yes"
        let harness = try EngineHarness([spec], runDirectory: directory.file("run")) { configuration in
            // The supervisor's own environment, as `up` gives it: this process's.
            let tag = configuration.environment["VT_TEST_TAG"]
            configuration.environment =
                EngineConfiguration(
                    runDirectory: configuration.runDirectory, execShim: configuration.execShim,
                    programDirectory: configuration.programDirectory
                ).environment
            configuration.environment["VT_TEST_TAG"] = tag
        }
        try await harness.start()
        try await harness.waitFor("dump", .ready)
        #expect(eventually(timeout: .seconds(10)) { (readFile(seen) ?? "").contains("FROM_THE_MANIFEST=yes") })
        let environment = readFile(seen) ?? ""
        #expect(!environment.contains("VERTICALS_TLS_KEY"), "the operator's key reached the service")
        #expect(!environment.contains("VT_ROOTWORK_SECRET"), "the supervisor's environment reached the service")
        #expect(environment.contains("PATH="))
        await harness.shutdown()
    }

    /// A manifest's `VERTICALS_TLS_KEY` naming a file of root's that is no key (`/etc/shadow`
    /// passes every other check): root hands over only `DIR/NAME/tls.key`, and leaves the rest as
    /// it was.
    @Test(.enabled(if: isRoot, "needs root: gives a key to another uid"))
    func keyHandover_ofAFileNotLaidOutAsAKey_isRefused_andTheFileIsLeftRoots() throws {
        let directory = TemporaryDirectory()
        chmod(directory.path, 0o755)
        let secret = directory.file("secret")
        writeText("root's alone\n", to: secret)
        chmod(secret, 0o600)
        #expect(throws: SupervisorError.self) {
            try KeyHandover.give(secret, service: "evil", uid: 65534, gid: 65534, userName: "nobody")
        }
        mkdir(directory.file("other"), 0o700)
        let othersKey = directory.file("other/tls.key")
        writeText("another service's key\n", to: othersKey)
        #expect(throws: SupervisorError.self) {
            try KeyHandover.give(othersKey, service: "evil", uid: 65534, gid: 65534, userName: "nobody")
        }
        #expect(HostileVerticalFilesTests.owner(secret) == 0 && HostileVerticalFilesTests.owner(othersKey) == 0)

        mkdir(directory.file("evil"), 0o700)
        let key = directory.file("evil/tls.key")
        writeText("its own key\n", to: key)
        try KeyHandover.give(key, service: "evil", uid: 65534, gid: 65534, userName: "nobody")
        #expect(
            HostileVerticalFilesTests.owner(key) == 65534
                && HostileVerticalFilesTests.owner(directory.file("evil")) == 65534)
    }

    /// Whoever may write the manifest root applies would have root run any program as any
    /// account: as root, `up` reads only a manifest root alone can have written.
    @Test(.enabled(if: isRoot, "needs root: a manifest root refuses to read"))
    func up_asRoot_refusesAManifestAnotherUserMayWrite() throws {
        let directory = TemporaryDirectory()
        let manifest = directory.file("suite.toml")
        writeText("[services.echo]\nexecutable = \"/bin/sleep\"\nargs = [\"600\"]\nsocket = false\n", to: manifest)
        for others in [true, false] {
            // Writable by others; then others' own.
            if others {
                chmod(manifest, 0o666)
            } else {
                chmod(manifest, 0o644)
                chown(manifest, 65534, 65534)
            }
            let result = try runCommand(
                "svc-supervisor", ["up", "--manifest", manifest, "--run-dir", directory.file("run")],
                environment: ["VERTICALS_POINTER_DIR": directory.file("pointer")], in: directory)
            #expect(
                result.status != 0 && result.standardError.contains("is not root's alone"),
                "\(result.status): \(result.standardError)")
            #expect(access(directory.file("run/supervisor.sock"), F_OK) != 0, "a supervisor started")
        }
    }

    @Test func controlSocket_isTheSupervisorsUserAlone() {
        #expect(ControlSocket.mode == 0o600)
    }
}

/// A flag one task raises and another reads.
private final class AtomicFlag: Sendable {
    let value = Atomic<Bool>(false)
}
