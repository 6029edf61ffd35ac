import IOInterface
import VerticalsContract
import VerticalsWire

/// A notification appointments owes a patient, kept in its own store until notifications
/// has it: written in the same transaction as the booking, so it is never lost, and sent
/// with a deduplication key, so a retry after a crash or a timeout never delivers twice.
///
/// Public, unlike the rest of this library (package access), for one outside user: `make bench`'s
/// durability floor commits appointments' own booking transaction in-process (Benchmarks/, another package).
public struct OutboxMessage: Sendable, Equatable {
    /// The row's id.
    public var id: Int64?
    /// The booking it is about.
    public var appointmentID: String
    /// Who to tell.
    public var userID: String
    public var title: String
    public var body: String
    /// Unique per message (`appointment:<id>:<event>`); notifications stores a key once.
    public var deduplicationKey: String
    /// How many sends failed so far.
    public var attempts: Int
    /// When to try next.
    public var nextAttemptAt: Timestamp

    /// Creates a message due at once.
    public init(
        appointmentID: String, userID: String, title: String, body: String, deduplicationKey: String, now: Timestamp
    ) {
        self.id = nil
        self.appointmentID = appointmentID
        self.userID = userID
        self.title = title
        self.body = body
        self.deduplicationKey = deduplicationKey
        self.attempts = 0
        self.nextAttemptAt = now
    }
}
