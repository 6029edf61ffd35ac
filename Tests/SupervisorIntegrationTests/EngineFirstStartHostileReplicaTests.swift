import GRDB
import Glibc
import Testing
import VerticalsContract
import VerticalsStorage
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsSharedTesting
import VerticalsTesting

extension EngineProcessTests {
    /// The store a replica gives back before a vertical's first start, attacked as a hostile
    /// replica host would: a copy that is no SQLite store, one that fails `PRAGMA
    /// integrity_check`, one of another vertical's. Each leaves the vertical not started, its
    /// status saying which check failed and what to do, and no store file behind.
    @Suite("first start from a hostile replica", .blocking, .timeLimit(.minutes(3)))
    struct FirstStartHostileReplica {
        typealias Replica = EngineProcessTests.Replica
        typealias ReplicaRestore = EngineProcessTests.ReplicaRestore

        /// What a hostile replica's copy is, and the words its refusal says.
        enum HostileCopy: String, CaseIterable, Sendable, CustomTestStringConvertible {
            case notSQLite, failsIntegrity, anotherVerticals

            var testDescription: String { rawValue }

            /// What the refusal names.
            var reason: String {
                switch self {
                case .notSQLite: "is not an SQLite store"
                case .failsIntegrity: "is damaged: row 1 missing from index i"
                case .anotherVerticals: "another vertical's"
                }
            }

            /// Writes the copy at `path`.
            func write(to path: String) throws {
                if self == .notSQLite {
                    #expect(writeFile(String(repeating: "not a store ", count: 400), to: path))
                    return
                }
                let owner = self == .anotherVerticals ? StoreOwner("stranger") : StoreOwner("ledger")
                let queue = try DatabaseQueue(path: path)
                try queue.writeWithoutTransaction { db in
                    try db.execute(
                        sql: """
                            PRAGMA application_id = \(owner.applicationID);
                            CREATE TABLE t (x, y); CREATE INDEX i ON t (x); INSERT INTO t VALUES (1, 2), (3, 4);
                            """)
                    _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
                    if self == .failsIntegrity {
                        // The index now claims another column than the one it holds: every SQLite
                        // page is well formed, and integrity_check finds its rows missing.
                        try db.execute(
                            sql: """
                                PRAGMA writable_schema = ON;
                                UPDATE sqlite_schema SET sql = 'CREATE INDEX i ON t (y)' WHERE name = 'i';
                                PRAGMA writable_schema = OFF;
                                """)
                    }
                }
                try queue.close()
                chmod(path, 0o644)
            }
        }

        /// A stand-in for Litestream in `directory`: `restore … -o OUT` writes the bytes of `copy`
        /// at OUT, as Litestream writes whatever the replica holds (a hostile host writes the
        /// replica's files, checksums included); any other command waits to be stopped.
        static func litestream(restoring copy: String, in directory: TemporaryDirectory) -> String {
            let program = directory.file("litestream")
            let script = """
                #!/bin/sh
                [ "$1" = restore ] || exec /bin/sleep 600
                while [ $# -gt 0 ]; do
                    if [ "$1" = -o ]; then exec /bin/cp \(copy) "$2"; fi
                    shift
                done
                exit 1

                """
            #expect(writeFile(script, to: program))
            chmod(program, 0o755)
            return program
        }

        /// Waits until `ledger` fails to start on its replica's copy, and returns its status then;
        /// stops it, and checks that no store, copy or staged file of the restore is left.
        static func refusedFirstStart(_ harness: EngineHarness) async throws -> Supervisor.ServiceStatus {
            try await Replica.waitUntil("the start fails, saying why") {
                try await harness.status("ledger").lastExit.contains("failed the checks of a restore")
            }
            let refused = try await harness.status("ledger")
            _ = try await harness.engine.stopService("ledger")
            try await harness.waitFor("ledger", .stopped)
            let state = harness.run.stateDirectory(for: "ledger")
            #expect(access(state + "/ledger.sqlite", F_OK) != 0, "a store was put in place")
            let left = FolderEntries.names(in: state).filter {
                ($0.hasPrefix("ledger.sqlite") && $0 != "ledger.sqlite.lock") || $0.contains("from-replica")
            }
            #expect(left.isEmpty, "left in the state folder: \(left)")
            #expect(!harness.events(of: "ledger").contains { $0.state == .ready }, "it started")
            return refused
        }

        @Test(arguments: HostileCopy.allCases)
        func firstStart_fromAHostileReplicasCopy_staysNotStarted_saysWhy_andLeavesNoStore(copy: HostileCopy)
            async throws
        {
            let directory = TemporaryDirectory()
            chmod(directory.path, 0o755)
            let file = directory.file("copy.sqlite")
            try copy.write(to: file)
            let program = Self.litestream(restoring: file, in: directory)
            let replicaFolder = TemporaryDirectory()
            let harness = try EngineHarness([Replica.replicated("ledger", to: replicaFolder.path)]) {
                $0.litestream = program
            }
            try await harness.start()
            let status = try await Self.refusedFirstStart(harness)
            #expect(status.pid == nil && status.state != .ready, "\(status.state)")
            #expect(status.lastExit.contains(copy.reason), "\(status.lastExit)")
            #expect(status.lastExit.contains("svc-supervisor restore ledger FILE"), "\(status.lastExit)")
            let log = readFile(harness.run.log(for: "ledger")) ?? ""
            let store = harness.run.stateDirectory(for: "ledger") + "/ledger.sqlite"
            #expect(!log.contains("restored \(store) from its replica"), "\(log)")
            #expect(log.contains(copy.reason), "the log says why too:\n\(log)")
            await harness.shutdown()
        }

        /// As root with a user per vertical, the replica's copy is read in a child as the
        /// vertical's user, never in root's process, and a copy that passes becomes the store,
        /// the vertical's own file, on which the vertical starts.
        @Test(.enabled(if: geteuid() == 0, "needs root: runs a vertical and its store's reader as its own user"))
        func firstStart_asItsOwnUser_checksTheCopyInAChildOfThatUser_andStartsOnAGoodOne() async throws {
            let (accounts, directory, bin) = try UserPerVerticalProcessTests.Host().parts
            let (reader, record) = RootWorkTests.recordingStoreReader(in: directory, bin: bin)
            let copy = directory.file("copy.sqlite")
            let queue = try DatabaseQueue(path: copy)
            try await queue.write { db in
                try db.execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES (1), (2)")
            }
            try queue.close()
            chmod(copy, 0o644)
            let program = Self.litestream(restoring: copy, in: directory)
            let replicaFolder = TemporaryDirectory()
            let run = RunDirectory(directory.file("run"))
            let harness = try EngineHarness(
                [Replica.replicated("ledger", to: replicaFolder.path)], runDirectory: run.path,
                programDirectory: bin, serviceUsers: accounts.users
            ) {
                $0.storeReader = reader
                $0.litestream = program
            }
            try await harness.start()
            try await harness.waitFor("ledger", .ready)
            let uid = try #require(accounts.uid("ledger"))
            let runs = (readFile("\(record)/runs") ?? "").split(separator: "\n").map(String.init)
            #expect(runs == ["\(uid) check"], "\(runs)")
            let store = run.stateDirectory(for: "ledger") + "/ledger.sqlite"
            var info = stat()
            #expect(lstat(store, &info) == 0 && info.st_uid == uid, "the store is the vertical's own file")
            let rows = try await DatabaseQueue(path: store).read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM t")
            }
            #expect(rows == 2)
            let left = FolderEntries.names(in: run.stateDirectory(for: "ledger")).filter {
                $0.contains("from-replica")
            }
            #expect(left.isEmpty, "the copy is removed: \(left)")
            await harness.shutdown()
        }

        /// Another vertical's replica, put where this one's goes (`PATH/NAME`), is restored by the
        /// real Litestream as faithfully as any: its store's owner refuses it.
        @Test(Replica.needsLitestream)
        func firstStart_fromAnotherVerticalsReplica_staysNotStarted_andNamesItsOwner() async throws {
            let program = try #require(Replica.litestream)
            let replicaFolder = TemporaryDirectory()
            let other = try EngineHarness([Replica.replicated("other", to: replicaFolder.path)]) {
                $0.litestream = program
            }
            try await other.start()
            try await other.waitFor("other", .ready)
            try await Replica.waitUntil("other's replica gets its first copy") {
                !ReplicaRestore.shipped(in: "\(replicaFolder.path)/other").isEmpty
            }
            await other.shutdown()
            #expect(rename("\(replicaFolder.path)/other", "\(replicaFolder.path)/ledger") == 0)

            let harness = try EngineHarness([Replica.replicated("ledger", to: replicaFolder.path)]) {
                $0.litestream = program
            }
            try await harness.start()
            let status = try await Self.refusedFirstStart(harness)
            #expect(status.lastExit.contains("another vertical's"), "\(status.lastExit)")
            #expect(status.lastExit.contains("not ledger's"), "\(status.lastExit)")
            await harness.shutdown()
        }
    }
}
