import Glibc
import Testing
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsSharedTesting
import VerticalsTesting

extension EngineProcessTests {
    /// A replicated vertical with no store yet, under the engine with the real Litestream and a
    /// folder replica: on a host that replaces a lost one its store comes back before it starts,
    /// on a first deploy (an empty replica) it starts with a new store, and a Litestream that
    /// fails leaves it not started.
    @Suite("first start restore", .blocking, .timeLimit(.minutes(3)))
    struct FirstStartRestore {
        typealias Replica = EngineProcessTests.Replica
        typealias ReplicaRestore = EngineProcessTests.ReplicaRestore

        /// Expects `harness`'s ledger started without a restart on a store of `rows` rows, its
        /// log saying `said(store's path)`; then shuts the engine down.
        static func expectStartedOnce(
            _ harness: EngineHarness, rows: Int, saying said: (String) -> String
        ) async throws {
            let store = harness.run.stateDirectory(for: "ledger") + "/ledger.sqlite"
            #expect(try ReplicaRestore.rows(in: store) == rows)
            #expect(try await harness.status("ledger").restarts == 0)
            let log = readFile(harness.run.log(for: "ledger")) ?? ""
            #expect(log.contains(said(store)), "\(log)")
            await harness.shutdown()
        }

        @Test(Replica.needsLitestream)
        func firstStart_withACopyInTheReplica_startsWithTheRestoredRows() async throws {
            let program = try #require(Replica.litestream)
            let replicaFolder = TemporaryDirectory()
            let replica = "\(replicaFolder.path)/ledger"
            let lost = try await Replica.startedLedger(replicatedTo: replicaFolder.path, by: program)
            try await Replica.waitUntil("the replica gets its first copy") {
                !ReplicaRestore.shipped(in: replica).isEmpty
            }
            let lostStore = lost.run.stateDirectory(for: "ledger") + "/ledger.sqlite"
            try await ReplicaRestore.writeReplicated(4, to: lostStore, replica: replica)
            await lost.shutdown()

            // Another run directory, the same replica, no store: no restore is asked for.
            let replacement = try await Replica.startedLedger(replicatedTo: replicaFolder.path, by: program)
            try await Self.expectStartedOnce(replacement, rows: 4) {
                "restored \($0) from its replica before the first start"
            }
        }

        @Test(Replica.needsLitestream)
        func firstStart_withAnEmptyReplica_startsWithANewStore() async throws {
            let program = try #require(Replica.litestream)
            let replicaFolder = TemporaryDirectory()
            let harness = try await Replica.startedLedger(replicatedTo: replicaFolder.path, by: program)
            try await Self.expectStartedOnce(harness, rows: 0) { _ in
                "its replica holds no copy yet: ledger starts with a new store"
            }
        }

        @Test func firstStart_whenLitestreamFails_leavesTheVerticalNotStarted_andSaysWhy() async throws {
            let replicaFolder = TemporaryDirectory()
            // A Litestream that fails every command it is given.
            let harness = try EngineHarness([Replica.replicated("ledger", to: replicaFolder.path)]) {
                $0.litestream = "/bin/false"
            }
            try await harness.start()
            try await Replica.waitUntil("the start fails, saying why") {
                try await harness.status("ledger").lastExit.contains("its store not restored")
            }
            let status = try await harness.status("ledger")
            #expect(status.pid == nil && status.state != .ready, "\(status.state)")
            #expect(status.lastExit.contains("litestream restore failed"), "\(status.lastExit)")
            let store = harness.run.stateDirectory(for: "ledger") + "/ledger.sqlite"
            #expect(access(store, F_OK) != 0, "no empty store was started on")
            await harness.shutdown()
        }
    }
}
