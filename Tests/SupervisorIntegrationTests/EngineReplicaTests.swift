import GRDB
import Glibc
import Testing
import VerticalsContract
import VerticalsManifest
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsSharedTesting
import VerticalsTesting

extension EngineProcessTests {
    /// A replicated vertical under the engine, with the real Litestream (`.build/venv/bin`, from
    /// `scripts/install-deps.sh --test`) and a folder replica: copies appear, a killed Litestream
    /// comes back and `status` says so, and nothing of it outlives the suite. Without the program,
    /// the vertical runs on and `status` says why its store is not replicated.
    @Suite("replica", .blocking, .timeLimit(.minutes(3)))
    struct Replica {
        /// The Litestream `install-deps.sh --test` installs, or nil.
        static let litestream: String? = {
            let path = "\(ManifestFixture.repositoryRoot)/.build/venv/bin/litestream"
            return access(path, X_OK) == 0 ? path : nil
        }()

        /// Runs a test only where ``litestream`` is installed.
        static var needsLitestream: ConditionTrait {
            .enabled(if: litestream != nil, "no .build/venv/bin/litestream: run scripts/install-deps.sh --test")
        }

        /// vt-testd as vertical `name` with a store, replicated to the folder `replica`.
        static func replicated(_ name: String, to replica: String) -> ServiceSpec {
            var spec = ServiceSpec.testd(name)
            spec.environment = ["VT_TESTD_MIGRATIONS": "1"]
            spec.replica = VerticalsManifest.Replica(target: .folder(path: replica), syncInterval: .milliseconds(200))
            spec.backoff = .every(.milliseconds(200))
            spec.stopTimeout = .seconds(5)
            return spec
        }

        /// An engine running ``replicated(_:to:)`` as `ledger`, replicated to `folder` by the
        /// Litestream at `program`, once the vertical is ready and its Litestream runs.
        static func startedLedger(replicatedTo folder: String, by program: String) async throws -> EngineHarness {
            let harness = try EngineHarness([replicated("ledger", to: folder)]) { $0.litestream = program }
            try await harness.start()
            try await harness.waitFor("ledger", .ready)
            try await waitUntil("litestream runs") {
                try await harness.status("ledger").replica?.state == .running
            }
            return harness
        }

        /// Files below `folder`, by path.
        static func files(under folder: String) -> Set<String> {
            var found: Set<String> = []
            for name in FolderEntries.names(in: folder) where name != "." && name != ".." {
                let path = "\(folder)/\(name)"
                var status = stat()
                guard lstat(path, &status) == 0 else { continue }
                if status.st_mode & S_IFMT == S_IFDIR {
                    found.formUnion(files(under: path))
                } else {
                    found.insert(path)
                }
            }
            return found
        }

        /// Waits for `fact`, bounded; `what` names it when it never comes.
        static func waitUntil(_ what: String, timeout: Duration = .seconds(60), _ fact: () async throws -> Bool)
            async throws
        {
            let deadline = ContinuousClock.now + timeout
            while try await !fact() {
                guard ContinuousClock.now < deadline else { throw HarnessTimeout("never: \(what)") }
                try await Task.sleep(for: .milliseconds(20))
            }
        }

        @Test(needsLitestream)
        func replicatedVertical_copiesWrites_restartsAKilledLitestream_andLeavesNoneAfterTheSuite() async throws {
            let program = try #require(Self.litestream)
            let replicaFolder = TemporaryDirectory()
            let harness = try await Self.startedLedger(replicatedTo: replicaFolder.path, by: program)
            let first = try #require(try await harness.status("ledger").replica?.pid)

            // A write to the store reaches the replica folder as Litestream's files, after the
            // first copy it makes on its own.
            try await Self.waitUntil("the replica gets its first copy") {
                !Self.files(under: "\(replicaFolder.path)/ledger").isEmpty
            }
            let before = Self.files(under: "\(replicaFolder.path)/ledger")
            let pool = try DatabasePool(path: harness.run.stateDirectory(for: "ledger") + "/ledger.sqlite")
            try await pool.write { db in try db.execute(sql: "INSERT INTO v1 DEFAULT VALUES") }
            try pool.close()
            try await Self.waitUntil("the replica gets a file after the write") {
                !Self.files(under: "\(replicaFolder.path)/ledger").subtracting(before).isEmpty
            }

            // Killed, it comes back, and status says so; the vertical never moved.
            let verticalPID = try await harness.status("ledger").pid
            kill(Int32(first), SIGKILL)
            try await Self.waitUntil("litestream restarted") {
                let replica = try await harness.status("ledger").replica
                return replica?.state == .running && replica?.pid != first && replica?.restarts == 1
            }
            let status = try await harness.status("ledger")
            #expect(status.replica?.exitReason == .crash)
            #expect(status.replica?.lastExit.contains("SIGKILL") == true)
            #expect(status.replica?.runningSince != nil)
            #expect(status.pid == verticalPID && status.state == .ready)
            let log = readFile(harness.run.log(for: "ledger")) ?? ""
            #expect(log.contains(" litestream "), "Litestream's own lines, stamped litestream:\n\(log)")

            // Stopping the suite leaves no Litestream behind.
            await harness.engine.stopAll()
            let left = EngineHarness.processes(taggedWith: harness.tag)
            #expect(left.isEmpty, "still running after the suite stopped: \(left)")
            #expect(try await harness.status("ledger").replica?.state == .stopped)
            await harness.shutdown()
        }

        @Test(needsLitestream)
        func restore_stopsLitestreamFirst_andReplicationGoesOnAfterTheRestart() async throws {
            let program = try #require(Self.litestream)
            let replicaFolder = TemporaryDirectory()
            let harness = try await Self.startedLedger(replicatedTo: replicaFolder.path, by: program)
            try await Self.waitUntil("the replica gets its first copy") {
                !Self.files(under: "\(replicaFolder.path)/ledger").isEmpty
            }

            // Stopped with its vertical, before the answer; the store is then restored from a copy.
            let stopped = try await harness.engine.stopService("ledger")
            #expect(stopped.replica?.state == .stopped)
            #expect(EngineHarness.processes(taggedWith: harness.tag).isEmpty)
            let store = harness.run.stateDirectory(for: "ledger") + "/ledger.sqlite"
            let backups = TemporaryDirectory()
            let backup = backups.file("ledger.sqlite")
            try DatabaseQueue(path: store).backup(to: DatabaseQueue(path: backup))
            _ = try await harness.engine.restoreStore("ledger", from: backup)

            // Started again, its Litestream copies what the vertical writes next.
            _ = try await harness.engine.startService("ledger")
            try await harness.waitFor("ledger", .ready, count: 2)
            try await Self.waitUntil("litestream runs again") {
                try await harness.status("ledger").replica?.state == .running
            }
            let before = Self.files(under: "\(replicaFolder.path)/ledger")
            let pool = try DatabasePool(path: store)
            try await pool.write { db in try db.execute(sql: "INSERT INTO v1 DEFAULT VALUES") }
            try pool.close()
            try await Self.waitUntil("the replica gets a file after the restore") {
                !Self.files(under: "\(replicaFolder.path)/ledger").subtracting(before).isEmpty
            }
            let replica = try await harness.status("ledger").replica
            #expect(replica?.state == .running, "\(String(describing: replica))")
            await harness.shutdown()
        }

        @Test func missingLitestream_leavesTheVerticalRunning_andStatusSaysWhy() async throws {
            let replicaFolder = TemporaryDirectory()
            let harness = try EngineHarness([Self.replicated("ledger", to: replicaFolder.path)]) {
                $0.litestream = "/nonexistent/litestream"
            }
            try await harness.start()
            try await harness.waitFor("ledger", .ready)
            try await Self.waitUntil("the replica says it failed") {
                try await harness.status("ledger").replica?.state == .failed
            }
            let status = try await harness.status("ledger")
            #expect(status.state == .ready && status.restarts == 0)
            #expect(status.replica?.exitReason == .startFailed)
            #expect(status.replica?.lastExit.contains("/nonexistent/litestream") == true)
            #expect(status.replica?.restarts == 0)
            await harness.shutdown()
        }
    }
}
