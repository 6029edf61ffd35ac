import GRDB
import Synchronization

/// Shares one commit among the writes of concurrent callers (group commit).
///
/// With `synchronous=FULL` every commit waits for the disk (about 0.25–1.2 ms here), so a store
/// that commits each caller's write on its own serves at most one write per disk flush, however
/// many callers wait. `GroupCommit` queues the writes that arrive while a commit is under way and
/// runs them, in arrival order, in the *next* transaction: one flush for all of them.
///
/// - Each write runs in its own savepoint: one that throws is rolled back and that caller gets its
///   error, while the others in the batch still commit.
/// - A caller is answered only after the commit that holds its write returned (or failed: then
///   every write of that transaction gets the commit's error, and none of them is stored).
/// - Writes of one batch run one after another on the store's writer, so each sees what the
///   earlier ones wrote: checks such as "is the slot still free" stay exact.
/// - An idle store adds no delay: the first write starts a commit at once.
/// - Each batch is one turn of the writer's queue, so a plain `database.write` waiting meanwhile
///   runs between two batches and is never starved.
///
/// ```swift
/// let commits = GroupCommit(writer: database)
/// let id = try await commits.write { db in
///     try db.execute(sql: "INSERT INTO t (x) VALUES (?)", arguments: [x])
///     return db.lastInsertedRowID
/// }
/// ```
public final class GroupCommit: Sendable {
    /// The store the batches commit to.
    public let writer: any DatabaseWriter
    /// The most writes one transaction holds (a long batch delays its first caller).
    public let maxBatch: Int
    private let queue = Mutex(Queue())

    private struct Queue {
        var pending: [any GroupedWrite] = []
        var committing = false
    }

    /// Group commits over `writer`, at most `maxBatch` writes per transaction.
    public init(writer: any DatabaseWriter, maxBatch: Int = 64) {
        precondition(maxBatch > 0, "a batch holds at least one write")
        self.writer = writer
        self.maxBatch = maxBatch
    }

    /// How many writes wait for the next transaction (not counting the one committing now).
    public var waiting: Int {
        queue.withLock { $0.pending.count }
    }

    /// Runs `work` in the next transaction and returns its result once that transaction committed.
    /// Throws what `work` threw (its changes rolled back), or the commit's error (nothing stored).
    public func write<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let write = TypedWrite(work: work, continuation: continuation)
            let starts = queue.withLock { queue in
                queue.pending.append(write)
                guard !queue.committing else { return false }
                queue.committing = true
                return true
            }
            if starts { scheduleBatch() }
        }
    }

    /// One batch per turn of the writer's queue; the last batch found nothing left and stops.
    private func scheduleBatch() {
        writer.asyncWriteWithoutTransaction { db in
            let batch = self.queue.withLock { queue -> [any GroupedWrite] in
                let count = min(self.maxBatch, queue.pending.count)
                let batch = Array(queue.pending.prefix(count))
                queue.pending.removeFirst(count)
                return batch
            }
            Self.commit(batch, db)
            let more = self.queue.withLock { queue in
                queue.committing = !queue.pending.isEmpty
                return queue.committing
            }
            if more { self.scheduleBatch() }
        }
    }

    private static func commit(_ batch: [any GroupedWrite], _ db: Database) {
        do {
            try db.inTransaction(.immediate) {
                for write in batch {
                    write.run(db)
                    // An error such as SQLITE_FULL may roll the whole transaction back: then the
                    // earlier writes are gone too, and the rest must not run outside a transaction.
                    guard db.isInsideTransaction else { throw DatabaseError(resultCode: .SQLITE_ABORT) }
                }
                return .commit
            }
        } catch {
            for write in batch { write.finish(commitError: error) }
            return
        }
        for write in batch { write.finish(commitError: nil) }
    }
}

/// One caller's write in a batch, whatever its result type.
private protocol GroupedWrite: Sendable {
    /// Runs the write in its own savepoint and keeps its outcome.
    func run(_ db: Database)
    /// Answers the caller: its own outcome once committed, else the commit's error.
    func finish(commitError: (any Error)?)
}

private final class TypedWrite<T: Sendable>: GroupedWrite {
    let work: @Sendable (Database) throws -> T
    let continuation: CheckedContinuation<T, any Error>
    let outcome = Mutex<Result<T, any Error>?>(nil)

    init(work: @escaping @Sendable (Database) throws -> T, continuation: CheckedContinuation<T, any Error>) {
        self.work = work
        self.continuation = continuation
    }

    func run(_ db: Database) {
        let result: Result<T, any Error>
        do {
            var value: T?
            try db.inSavepoint {
                value = try work(db)
                return .commit
            }
            result = .success(value!)
        } catch {
            result = .failure(error)
        }
        outcome.withLock { $0 = result }
    }

    func finish(commitError: (any Error)?) {
        if let commitError {
            continuation.resume(throwing: commitError)
        } else {
            continuation.resume(with: outcome.withLock { $0 } ?? .failure(DatabaseError(resultCode: .SQLITE_MISUSE)))
        }
    }
}
