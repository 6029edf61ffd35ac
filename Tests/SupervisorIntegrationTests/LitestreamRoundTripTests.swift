import Foundation
import GRDB
import Glibc
import Testing
import VerticalsDeployTesting
import VerticalsEventLoop
import VerticalsManifest
import VerticalsStorage
import VerticalsTesting

/// A store written by the framework goes through the real Litestream, with the configuration the
/// framework writes, to a folder replica and back: whole, to a point in time, and after a new file
/// was renamed over the store (`litestream reset`, then the replica's history goes on).
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct LitestreamRoundTripTests {
    /// `litestream` on PATH (`scripts/install-deps.sh --test` puts it in .build/venv/bin).
    static let litestream = ToolLookup.which("litestream")

    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("entries") { db in
            try db.execute(sql: "CREATE TABLE entries (id INTEGER PRIMARY KEY, note TEXT NOT NULL)")
        }
        return migrator
    }()

    /// One store, its Litestream configuration and its replica folder, in a temporary folder.
    final class Bench {
        let directory = TemporaryDirectory()
        let litestream: String
        var state: String { directory.file("state") }
        var store: String { "\(state)/ledger.sqlite" }
        var replica: String { directory.file("replica") }
        var configPath: String { directory.file("litestream.yml") }

        init(litestream: String) throws {
            self.litestream = litestream
            let configuration = LitestreamConfiguration(
                storePath: store, replica: Replica(target: .folder(path: replica)).forService("ledger"))
            try configuration.yaml.write(toFile: configPath, atomically: true, encoding: .utf8)
        }

        /// The store as the framework opens a replicated one.
        func open(_ folder: String? = nil) throws -> DatabasePool {
            try SQLiteStore.$replication.withValue(.litestream) {
                try SQLiteStore.open(directory: folder ?? state, fileName: "ledger.sqlite", migrator: migrator)
            }
        }

        func insert(_ notes: [String], into pool: DatabasePool) throws {
            try pool.write { db in
                for note in notes { try db.execute(sql: "INSERT INTO entries (note) VALUES (?)", arguments: [note]) }
            }
        }

        /// Runs `litestream replicate` until the replica holds a file it did not hold before, then
        /// stops it with SIGTERM (its last sync runs before it exits) and waits for its exit.
        func replicateOnce() throws {
            let before = Self.files(under: replica)
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            let log = directory.file("litestream.log")
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            let started = ChildProcess.posixSpawn(
                litestream, LitestreamConfiguration.replicateArguments(configPath: configPath),
                environment: ["PATH": "/usr/bin:/bin", "HOME": directory.path, "VT_TEST_TAG": TestRunTag.value],
                actions: &actions)
            try #require(started.status == 0, "cannot start \(litestream): errno \(started.status)")
            var status: Int32 = 0
            defer { if kill(started.pid, 0) == 0 { kill(started.pid, SIGKILL); waitpid(started.pid, &status, 0) } }
            let deadline = ContinuousClock.now + .seconds(60)
            while Self.files(under: replica).subtracting(before).isEmpty {
                guard ContinuousClock.now < deadline, waitpid(started.pid, &status, WNOHANG) == 0 else {
                    Issue.record("litestream wrote nothing to the replica:\n\(readFile(log) ?? "")")
                    return
                }
                usleep(20_000)
            }
            kill(started.pid, SIGTERM)
            waitpid(started.pid, &status, 0)
            #expect(status & 0x7f == 0 && (status >> 8) & 0xff == 0, "litestream's exit: \(readFile(log) ?? "")")
        }

        /// `litestream restore` into `folder/ledger.sqlite`, at the latest point or at `timestamp`.
        func restore(into folder: String, at timestamp: String? = nil) throws {
            mkdir(folder, 0o700)
            let result = try runCommand(
                litestream,
                LitestreamConfiguration.restoreArguments(
                    configPath: configPath, storePath: store, output: "\(folder)/ledger.sqlite", timestamp: timestamp),
                environment: ["HOME": directory.path], in: directory, timeout: .seconds(60))
            #expect(result.status == 0, "restore: \(result.standardError)")
        }

        /// The notes of the store in `folder`, opened by the framework as the vertical would.
        func notes(in folder: String) throws -> [String] {
            let pool = try open(folder)
            defer { try? pool.close() }
            return try pool.read { db in try String.fetchAll(db, sql: "SELECT note FROM entries ORDER BY id") }
        }

        /// Every file below `folder`, by path.
        static func files(under folder: String) -> Set<String> {
            guard let entries = FileManager.default.enumerator(atPath: folder) else { return [] }
            var files: Set<String> = []
            for case let entry as String in entries {
                var info = stat()
                if stat("\(folder)/\(entry)", &info) == 0, info.st_mode & S_IFMT == S_IFREG { files.insert(entry) }
            }
            return files
        }
    }

    static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }

    @Test(.enabled(if: litestream != nil, "litestream is not on PATH: scripts/install-deps.sh --test installs it"))
    func store_goesToAFolderReplica_andComesBackWhole_toAPointInTime_andAfterARename() throws {
        let bench = try Bench(litestream: try #require(Self.litestream))
        var pool = try bench.open()
        try bench.insert(["a1", "a2", "a3"], into: pool)
        try bench.replicateOnce()
        let afterA = Self.now()
        try bench.insert(["b1", "b2"], into: pool)
        try bench.replicateOnce()

        try bench.restore(into: bench.directory.file("latest"))
        #expect(try bench.notes(in: bench.directory.file("latest")) == ["a1", "a2", "a3", "b1", "b2"])
        try bench.restore(into: bench.directory.file("past"), at: afterA)
        #expect(try bench.notes(in: bench.directory.file("past")) == ["a1", "a2", "a3"])

        // A restore puts a new file in the store's place with nobody holding it: Litestream's
        // local state then describes another file, and `reset` forgets it.
        try pool.close()
        for suffix in ["-wal", "-shm"] { unlink(bench.store + suffix) }
        #expect(rename(bench.directory.file("past/ledger.sqlite"), bench.store) == 0)
        let reset = try runCommand(
            bench.litestream,
            LitestreamConfiguration.resetArguments(configPath: bench.configPath, storePath: bench.store),
            environment: ["HOME": bench.directory.path], in: bench.directory)
        #expect(reset.status == 0, "reset: \(reset.standardError)")
        pool = try bench.open()
        try bench.insert(["c1"], into: pool)
        try bench.replicateOnce()
        try pool.close()

        try bench.restore(into: bench.directory.file("renamed"))
        #expect(try bench.notes(in: bench.directory.file("renamed")) == ["a1", "a2", "a3", "c1"])
    }
}
