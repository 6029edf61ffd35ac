import GRDB
import Glibc
import Logging
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsStorage
import VerticalsTesting
import VerticalsWire
@testable import VerticalsObservability
@testable import VerticalsServiceKit

/// `daemon.setLogLevel` and `daemon.backup`, served in-process through the router the host
/// builds, and the typed answer to a full disk.
@Suite(.serialized)
struct OperatorBuiltinTests {
    /// A router with only the built-ins, over `store`.
    static func router(store: (any DatabaseReader)? = nil, stateDirectory: String? = nil, keep: Int = 16) -> Router {
        var configuration = HostConfiguration(name: "tests", socketDirectory: SocketDirectory("/nonexistent"))
        configuration.store = store.map(SQLiteVerticalStore.init)
        configuration.stateDirectory = stateDirectory
        configuration.backupKeep = keep
        var router = Router(service: "tests")
        Builtins.install(into: &router, configuration: configuration)
        return router
    }

    /// A store with a table of `rows` numbered rows.
    static func store(in directory: TemporaryDirectory, rows: Int) throws -> DatabasePool {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE items (n INTEGER NOT NULL)") }
        let pool = try SQLiteStore.open(
            directory: directory.file("state"), fileName: "tests.sqlite", migrator: migrator)
        try pool.write { db in
            for n in 0..<rows { try db.execute(sql: "INSERT INTO items (n) VALUES (?)", arguments: [n]) }
        }
        return pool
    }

    @Test func setLogLevel_changesTheLevelEveryExistingLoggerFollows_andReportsThePreviousOne() async throws {
        LoggingBootstrap.bootstrap(environment: [:])
        let before = RuntimeLogLevel.current
        defer { RuntimeLogLevel.current = before }
        RuntimeLogLevel.current = .info
        let existing = Logger(label: "made-before")

        let change = try await Self.router().serveInProcess(Daemon.setLogLevel, .init(level: .debug))
        let report = try await Self.router().serveInProcess(Daemon.setLogLevel, .init())

        #expect(change.previous == .info && change.level == .debug)
        #expect(report.level == .debug && report.previous == .debug)
        #expect(existing.logLevel == .debug)
    }

    @Test func setLogLevel_givenAnUnknownLevel_isInvalidInputAndChangesNothing() async throws {
        let before = RuntimeLogLevel.current
        let error = await serviceError {
            try await Self.router().serveInProcess(Daemon.setLogLevel, .init(level: .unknown("loud")))
        }
        #expect(error?.code == .invalidInput)
        #expect(RuntimeLogLevel.current == before)
    }

    @Test func backup_whileWritesGoOn_writesAWholeConsistentCopy() async throws {
        let directory = TemporaryDirectory()
        let pool = try Self.store(in: directory, rows: 1000)
        let router = Self.router(store: pool, stateDirectory: directory.file("state"))
        let writer = Task {
            for n in 1000..<1500 {
                try await pool.write { db in try db.execute(sql: "INSERT INTO items (n) VALUES (?)", arguments: [n]) }
            }
        }

        let backup = try await router.serveInProcess(Daemon.backup, .init(path: "copy.sqlite"))
        try await writer.value

        let copy = try DatabaseQueue(path: backup.path)
        let (count, check, maximum) = try await copy.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM items") ?? -1,
                try String.fetchOne(db, sql: "PRAGMA integrity_check"),
                try Int.fetchOne(db, sql: "SELECT MAX(n) FROM items") ?? -1
            )
        }
        #expect(check == "ok")
        #expect((1000...1500).contains(count))
        #expect(maximum == count - 1, "a prefix of the commits, none missing in between")
        #expect(backup.bytes > 0 && backup.service == "tests")
    }

    @Test func backup_refusesAnExistingFile_aDaemonWithoutAStore_orWithoutAStateFolder() async throws {
        let directory = TemporaryDirectory()
        let router = Self.router(store: try Self.store(in: directory, rows: 1), stateDirectory: directory.file("state"))
        _ = try await router.serveInProcess(Daemon.backup, .init(path: "copy.sqlite"))

        let again = await serviceError { try await router.serveInProcess(Daemon.backup, .init(path: "copy.sqlite")) }
        let storeless = await serviceError {
            try await Self.router(stateDirectory: directory.file("state")).serveInProcess(
                Daemon.backup, .init(path: "other.sqlite"))
        }
        let other = TemporaryDirectory()
        let folderlessRouter = Self.router(store: try Self.store(in: other, rows: 1))
        let folderless = await serviceError {
            try await folderlessRouter.serveInProcess(Daemon.backup, .init(path: "x.sqlite"))
        }

        #expect(again?.code == .conflict)
        #expect(storeless?.code == .unimplemented)
        #expect(folderless?.code == .unimplemented)
    }

    /// Confined to the state folder's `backups/`: anything else is `invalidInput` naming the
    /// path, and nothing is written there.
    @Test(arguments: [
        "/tmp/vt-backup-elsewhere.sqlite", "../x.sqlite", "..", ".hidden.sqlite", "a/b.sqlite", "", "STATE/../x.sqlite",
        "STATE/sub/x.sqlite",
    ])
    func backup_outsideTheBackupsFolder_isInvalidInput_andWritesNothing(path: String) async throws {
        let directory = TemporaryDirectory()
        let state = directory.file("state")
        let router = Self.router(store: try Self.store(in: directory, rows: 1), stateDirectory: state)
        let requested = path.replacingOccurrences(of: "STATE", with: "\(state)/backups")

        let error = await serviceError { try await router.serveInProcess(Daemon.backup, .init(path: requested)) }

        #expect(error?.code == .invalidInput, "\(requested): \(String(describing: error))")
        #expect(error?.detail("field") == "path")
        #expect(access("/tmp/vt-backup-elsewhere.sqlite", F_OK) != 0)
        #expect(access(directory.file("x.sqlite"), F_OK) != 0 && access("\(state)/x.sqlite", F_OK) != 0)
    }

    /// An absolute path naming the backups folder is taken; a link planted where the folder or the
    /// file goes is refused and followed nowhere.
    @Test func backup_ofTheBackupsFoldersOwnPath_isTaken_butALinkThereIsRefused() async throws {
        let directory = TemporaryDirectory()
        let state = directory.file("state")
        let router = Self.router(store: try Self.store(in: directory, rows: 1), stateDirectory: state)

        let taken = try await router.serveInProcess(Daemon.backup, .init(path: "\(state)/backups/abs.sqlite"))
        #expect(taken.path == "\(state)/backups/abs.sqlite")

        let target = directory.file("sentinel")
        #expect(symlink(target, "\(state)/backups/linked.sqlite") == 0)
        let linkedFile = await serviceError {
            try await router.serveInProcess(Daemon.backup, .init(path: "linked.sqlite"))
        }
        #expect(linkedFile?.code == .invalidInput, "\(String(describing: linkedFile))")
        #expect(access(target, F_OK) != 0, "the link was followed")

        let other = TemporaryDirectory()
        let state2 = other.file("state")
        let router2 = Self.router(store: try Self.store(in: other, rows: 1), stateDirectory: state2)
        mkdir(other.file("elsewhere"), 0o700)
        #expect(symlink(other.file("elsewhere"), "\(state2)/backups") == 0)
        let linkedFolder = await serviceError {
            try await router2.serveInProcess(Daemon.backup, .init(path: "x.sqlite"))
        }
        #expect(linkedFolder?.code == .invalidInput, "\(String(describing: linkedFolder))")
        #expect(access(other.file("elsewhere/x.sqlite"), F_OK) != 0, "written through the link")
    }

    /// At most `VERTICALS_BACKUP_KEEP` files are kept: past it, `resourceExhausted` until some go.
    @Test func backup_pastTheKeptFilesCap_isResourceExhausted_untilOneIsMovedAway() async throws {
        let directory = TemporaryDirectory()
        let state = directory.file("state")
        let router = Self.router(store: try Self.store(in: directory, rows: 1), stateDirectory: state, keep: 2)
        _ = try await router.serveInProcess(Daemon.backup, .init(path: "1.sqlite"))
        _ = try await router.serveInProcess(Daemon.backup, .init(path: "2.sqlite"))

        let third = await serviceError { try await router.serveInProcess(Daemon.backup, .init(path: "3.sqlite")) }
        #expect(third?.code == .resourceExhausted, "\(String(describing: third))")
        #expect(third?.message.contains("VERTICALS_BACKUP_KEEP=2") == true)
        #expect(access("\(state)/backups/3.sqlite", F_OK) != 0)

        unlink("\(state)/backups/1.sqlite")
        _ = try await router.serveInProcess(Daemon.backup, .init(path: "3.sqlite"))
        #expect(HostConfiguration.from(environment: ["VERTICALS_BACKUP_KEEP": "5"], name: "x", pid: 1).backupKeep == 5)
    }

    /// Under systemd's `ProtectSystem=strict` the state directory is the daemon's only writable
    /// folder: a plain file name is written there, owner-only, and the answer says where.
    @Test func backup_givenAFileName_writesItUnderTheStateDirectory_ownerOnly() async throws {
        let directory = TemporaryDirectory()
        let router = Self.router(store: try Self.store(in: directory, rows: 3), stateDirectory: directory.file("state"))

        let backup = try await router.serveInProcess(Daemon.backup, .init(path: "tests-1.sqlite"))
        let escaping = await serviceError { try await router.serveInProcess(Daemon.backup, .init(path: "../x.sqlite")) }

        #expect(backup.path == directory.file("state/backups/tests-1.sqlite"))
        #expect(BackupFileTests.mode(backup.path) == 0o600)
        let copy = try DatabaseQueue(path: backup.path)
        #expect(try await copy.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM items") } == 3)
        #expect(escaping?.code == .invalidInput)
    }

    @Test func aFullStore_isResourceExhausted_notInternal() throws {
        let directory = TemporaryDirectory()
        let pool = try Self.store(in: directory, rows: 0)
        // SQLite answers SQLITE_FULL at max_page_count exactly as on a full disk.
        let failure: (any Error)? = {
            do {
                try pool.write { db in
                    try db.execute(sql: "PRAGMA max_page_count = 3")
                    for n in 0..<10_000 {
                        try db.execute(sql: "INSERT INTO items (n) VALUES (?)", arguments: [n])
                    }
                }
                return nil
            } catch { return error }
        }()

        let full = try #require(failure)
        let store = SQLiteVerticalStore(pool)
        let mapped = try #require(store.serviceError(for: full, operation: "tests.add"))
        #expect(mapped.code == .resourceExhausted)
        #expect(mapped.message.contains("disk is full"))
        #expect(store.serviceError(for: CancellationError(), operation: "tests.add") == nil)
    }
}
