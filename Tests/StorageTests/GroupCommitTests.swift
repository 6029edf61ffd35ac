import Dispatch
import GRDB
import Synchronization
import Testing
import VerticalsStorage

/// Storage's group commit: concurrent writes share a transaction, each still all-or-nothing,
/// each caller answered with its own result.
struct GroupCommitTests {
    /// An in-memory store with one table `t (x TEXT UNIQUE)`, counting its commits.
    final class Given: Sendable {
        let database: DatabaseQueue
        let commits: GroupCommit
        let counter = CommitCounter()

        init(maxBatch: Int = 64) throws {
            database = try DatabaseQueue()
            try database.write { db in try db.execute(sql: "CREATE TABLE t (x TEXT NOT NULL UNIQUE)") }
            let counter = self.counter
            database.writeWithoutTransaction { db in db.add(transactionObserver: counter, extent: .databaseLifetime) }
            commits = GroupCommit(writer: database, maxBatch: maxBatch)
        }

        func stored() throws -> [String] {
            try database.read { db in try String.fetchAll(db, sql: "SELECT x FROM t ORDER BY x") }
        }

        /// Runs `writes` (each a write's index) with the writer held until all of them wait, so
        /// they are queued together; returns each write's outcome by index.
        func queuedTogether(
            _ count: Int, _ work: @escaping @Sendable (Int, Database) throws -> Int
        ) async throws -> [Int: Result<Int, any Error>] {
            let gate = DispatchSemaphore(value: 0)
            database.asyncWriteWithoutTransaction { _ in gate.wait() }
            return try await withThrowingTaskGroup(of: (Int, Result<Int, any Error>).self) { group in
                for index in 0..<count {
                    group.addTask {
                        do {
                            return (index, .success(try await self.commits.write { db in try work(index, db) }))
                        } catch {
                            return (index, .failure(error))
                        }
                    }
                }
                // Bounded: the writes are only being enqueued; a wedged enqueue fails the test.
                for _ in 0..<10_000 where commits.waiting < count { try await Task.sleep(for: .milliseconds(1)) }
                #expect(commits.waiting == count)
                gate.signal()
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
        }
    }

    /// Counts the commits of a store.
    final class CommitCounter: TransactionObserver, Sendable {
        private let count = Mutex(0)
        var commits: Int { count.withLock { $0 } }
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) { count.withLock { $0 += 1 } }
        func databaseDidRollback(_ db: Database) {}
    }

    struct Refused: Error {}

    @Test func writesQueuedDuringACommit_shareTheNextOne_eachGettingItsOwnResult() async throws {
        let given = try Given()
        let before = given.counter.commits

        let outcomes = try await given.queuedTogether(10) { index, db in
            try db.execute(sql: "INSERT INTO t (x) VALUES (?)", arguments: ["w\(index)"])
            return index * 100
        }

        #expect(outcomes.count == 10)
        for (index, outcome) in outcomes { #expect(try outcome.get() == index * 100) }
        #expect(try given.stored().count == 10)
        #expect(given.counter.commits - before == 1, "10 writes, one commit")
    }

    @Test func aBatchLongerThanMaxBatch_takesSeveralCommits() async throws {
        let given = try Given(maxBatch: 4)
        let before = given.counter.commits

        let outcomes = try await given.queuedTogether(10) { index, db in
            try db.execute(sql: "INSERT INTO t (x) VALUES (?)", arguments: ["w\(index)"])
            return index
        }

        #expect(outcomes.values.allSatisfy { (try? $0.get()) != nil })
        #expect(given.counter.commits - before == 3, "4 + 4 + 2")
    }

    @Test func aWriteThatThrows_isRolledBackAlone_andTheOthersCommit() async throws {
        let given = try Given()

        let outcomes = try await given.queuedTogether(5) { index, db in
            try db.execute(sql: "INSERT INTO t (x) VALUES (?)", arguments: ["w\(index)"])
            if index == 2 { throw Refused() }
            return index
        }

        #expect(throws: Refused.self) { try outcomes[2]!.get() }
        #expect(try given.stored() == ["w0", "w1", "w3", "w4"])
    }

    @Test func aWriteThatBreaksAConstraint_failsAlone() async throws {
        let given = try Given()

        // Writes 0 and 3 both insert "w0": whichever the batch runs second breaks the constraint
        // (the tasks queue in no set order), and fails alone.
        let outcomes = try await given.queuedTogether(4) { index, db in
            try db.execute(sql: "INSERT INTO t (x) VALUES (?)", arguments: [index == 3 ? "w0" : "w\(index)"])
            return index
        }

        let failed = outcomes.filter { (try? $0.value.get()) == nil }
        #expect(Set(failed.keys).isSubset(of: [0, 3]) && failed.count == 1, "\(outcomes)")
        for (_, outcome) in failed { #expect(throws: DatabaseError.self) { try outcome.get() } }
        #expect(try given.stored() == ["w0", "w1", "w2"])
    }

    @Test func writesOfOneBatch_seeTheEarlierOnes_soACheckThenInsertStaysExact() async throws {
        let given = try Given()

        let outcomes = try await given.queuedTogether(8) { index, db in
            let taken = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? 0
            guard taken < 3 else { throw Refused() }
            try db.execute(sql: "INSERT INTO t (x) VALUES (?)", arguments: ["w\(index)"])
            return index
        }

        #expect(outcomes.values.filter { (try? $0.get()) != nil }.count == 3)
        #expect(try given.stored().count == 3)
    }

    @Test func aWriteThatEndsTheTransaction_failsTheWholeBatch_andStoresNoneOfIt() async throws {
        let given = try Given()

        let outcomes = try await given.queuedTogether(4) { index, db in
            try db.execute(sql: "INSERT INTO t (x) VALUES (?)", arguments: ["w\(index)"])
            // What SQLITE_FULL or SQLITE_IOERR may do: roll the whole transaction back.
            if index == 1 { try db.execute(sql: "ROLLBACK") }
            return index
        }

        #expect(outcomes.values.allSatisfy { (try? $0.get()) == nil }, "nobody is told their write is stored")
        #expect(try given.stored().isEmpty)
        // The store goes on: the next write commits.
        #expect(try await given.commits.write { db in try db.execute(sql: "INSERT INTO t (x) VALUES ('after')") } == ())
        #expect(try given.stored() == ["after"])
    }

    @Test func aLoneWrite_commitsAtOnce() async throws {
        let given = try Given()

        let id = try await given.commits.write { db in
            try db.execute(sql: "INSERT INTO t (x) VALUES ('alone')")
            return db.lastInsertedRowID
        }

        #expect(id == 1)
        #expect(given.commits.waiting == 0)
        #expect(try given.stored() == ["alone"])
    }
}
