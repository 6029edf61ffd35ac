import GRDB
import IOInterface
import VerticalsContract
import VerticalsStorage
import VerticalsWire

/// Appointments' store: bookings and the notification outbox, over GRDB.
///
/// Every method is one transaction; the booking checks (idempotency, overlap, capacity)
/// and the insert of the booking *and* its outbox message happen in a single write
/// transaction, which SQLite serialises, so two concurrent bookings cannot both take the
/// last place, and an acknowledged booking always has its notification queued.
///
/// The daemon's store shares commits (``GroupCommit``): the bookings and deliveries that arrive
/// while a commit is under way go to disk together in the next one, each still in its own
/// savepoint and each caller answered only once the commit holding its write returned.
///
/// Public, unlike the rest of this library (package access), for one outside user: `make bench`'s
/// durability floor commits appointments' own booking transaction in-process (Benchmarks/, another package).
public struct BookingStore: Sendable {
    /// The store itself (what `daemon.backup` copies).
    public let database: any DatabaseWriter
    /// Shares one commit among concurrent writes; `nil`: each write commits on its own.
    private let commits: GroupCommit?

    /// A store over `database` (migrated with ``Migrations/all``); `sharingCommits` batches
    /// concurrent writes into one transaction (see ``GroupCommit``), otherwise each write is one.
    public init(database: any DatabaseWriter, sharingCommits: Bool = false) {
        self.database = database
        self.commits = sharingCommits ? GroupCommit(writer: database) : nil
    }

    /// Runs `work` in a write transaction: the next shared one, or its own.
    private func write<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        if let commits { return try await commits.write(work) }
        return try await database.write(work)
    }

    /// What ``insert(_:outbox:capacity:)`` decided.
    public enum InsertOutcome: Sendable, Equatable {
        /// The booking was stored.
        case inserted(Booking)
        /// The same requestID was booked before: its booking.
        case replayed(Booking)
    }

    /// Stores `booking` and its `outbox` message unless the patient overlaps another booking
    /// or the clinic's `capacity` for the service is taken; replays a repeated requestID.
    public func insert(_ booking: Booking, outbox: OutboxMessage, capacity: Int) async throws -> InsertOutcome {
        try await write { db -> InsertOutcome in
            if let previous = try Self.booking(db, patientID: booking.patientID, requestID: booking.requestID) {
                let same =
                    previous.clinicID == booking.clinicID && previous.service == booking.service
                    && previous.startsAt == booking.startsAt && previous.endsAt == booking.endsAt
                guard same else { throw BookingError.requestIDReused }
                return .replayed(previous)
            }
            // Only bookings starting in (startsAt - longest booking, endsAt) can overlap: an index range.
            let longest = Int64(Booking.durations.upperBound) * 60_000_000
            guard booking.endsAt.microsecondsSinceEpoch - booking.startsAt.microsecondsSinceEpoch <= longest else {
                throw BookingError.invalid(
                    field: "durationMinutes", reason: "must be at most \(Booking.durations.upperBound) minutes")
            }
            let window: StatementArguments = [
                booking.startsAt.microsecondsSinceEpoch - longest, booking.endsAt.microsecondsSinceEpoch,
                booking.startsAt.microsecondsSinceEpoch,
            ]
            if let clash = try String.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT id FROM bookings WHERE patient_id = ? AND status = 'booked'
                        AND starts_at > ? AND starts_at < ? AND ends_at > ? LIMIT 1
                        """),
                arguments: [booking.patientID] + window)
            {
                throw BookingError.patientBusy(existingID: clash)
            }
            let taken =
                try Int.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT COUNT(*) FROM bookings WHERE clinic_id = ? AND service = ? AND status = 'booked'
                            AND starts_at > ? AND starts_at < ? AND ends_at > ?
                            """),
                    arguments: [booking.clinicID, booking.service.wireName] + window) ?? 0
            guard taken < capacity else { throw BookingError.slotFull }
            try db.cachedStatement(
                sql: """
                    INSERT INTO bookings (id, patient_id, clinic_id, clinic_name, service, starts_at, ends_at, reason,
                        status, created_at, request_id, notified)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
                    """
            ).execute(arguments: [
                booking.id, booking.patientID, booking.clinicID, booking.clinicName, booking.service.wireName,
                booking.startsAt.microsecondsSinceEpoch, booking.endsAt.microsecondsSinceEpoch, booking.reason,
                booking.status.wireName, booking.createdAt.microsecondsSinceEpoch, booking.requestID,
            ])
            try Self.enqueue(db, outbox)
            return .inserted(booking)
        }
    }

    /// The booking with `id`, if any.
    public func booking(id: String) async throws -> Booking? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM bookings WHERE id = ?", arguments: [id]).map(Self.booking(from:))
        }
    }

    /// Marks a booking cancelled and queues the patient's notification, in one transaction.
    public func cancel(id: String, outbox: OutboxMessage) async throws -> Booking {
        try await write { db in
            try db.execute(sql: "UPDATE bookings SET status = 'cancelled' WHERE id = ?", arguments: [id])
            try Self.enqueue(db, outbox)
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM bookings WHERE id = ?", arguments: [id]) else {
                throw BookingError.notFound(id)
            }
            return Self.booking(from: row)
        }
    }

    /// Up to `limit` of the patient's bookings starting in `from..<to`, earliest first, after
    /// position `after` (a (starts_at, id) keyset position: bookings made while a caller
    /// pages never shift what it has not seen yet).
    public func bookings(
        patientID: String, from: Timestamp, to: Timestamp, includeCancelled: Bool, after: PageCursor? = nil,
        limit: Int = .max
    ) async throws -> [Booking] {
        try await database.read { db in
            var arguments: StatementArguments = [
                patientID, from.microsecondsSinceEpoch, to.microsecondsSinceEpoch, includeCancelled,
            ]
            var position = ""
            if let after, case .integer(let startsAt) = after.keys[0], case .text(let id) = after.keys[1] {
                position = "AND (starts_at, id) > (?, ?)"
                arguments += [startsAt, id]
            }
            arguments += [Int64(clamping: limit)]
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM bookings WHERE patient_id = ? AND starts_at >= ? AND starts_at < ?
                    AND (? OR status = 'booked') \(position) ORDER BY starts_at, id LIMIT ?
                    """,
                arguments: arguments
            ).map(Self.booking(from:))
        }
    }

    // MARK: Outbox

    /// Undelivered messages due by `now`, oldest first.
    public func dueMessages(now: Timestamp, limit: Int = 100) async throws -> [OutboxMessage] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM outbox WHERE delivered_at IS NULL AND next_attempt_at <= ?
                    ORDER BY next_attempt_at, id LIMIT ?
                    """,
                arguments: [now.microsecondsSinceEpoch, limit]
            ).map(Self.message(from:))
        }
    }

    /// When the next undelivered message is due, if any is waiting.
    public func nextDue() async throws -> Timestamp? {
        try await database.read { db in
            try Int64.fetchOne(db, sql: "SELECT MIN(next_attempt_at) FROM outbox WHERE delivered_at IS NULL")
                .map(Timestamp.init(microsecondsSinceEpoch:))
        }
    }

    /// Records deliveries: each message (by its deduplication key) is done and its booking marked
    /// notified, all in one transaction. A message recorded before stays as it was.
    public func markDelivered(_ messages: [OutboxMessage], at now: Timestamp) async throws {
        guard !messages.isEmpty else { return }
        try await write { db in
            for message in messages {
                try db.cachedStatement(
                    sql: "UPDATE outbox SET delivered_at = ? WHERE deduplication_key = ? AND delivered_at IS NULL"
                ).execute(arguments: [now.microsecondsSinceEpoch, message.deduplicationKey])
                try db.cachedStatement(sql: "UPDATE bookings SET notified = 1 WHERE id = ?")
                    .execute(arguments: [message.appointmentID])
            }
        }
    }

    /// Records failed sends, each retried at the time paired with it, in one transaction.
    public func markFailed(_ failures: [(message: OutboxMessage, retryAt: Timestamp)]) async throws {
        guard !failures.isEmpty else { return }
        let rows = failures.map { ($0.message.deduplicationKey, $0.retryAt.microsecondsSinceEpoch) }
        try await write { db in
            for (key, retryAt) in rows {
                try db.execute(
                    sql: """
                        UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?
                        WHERE deduplication_key = ? AND delivered_at IS NULL
                        """,
                    arguments: [retryAt, key])
            }
        }
    }

    // MARK: Rows

    private static func enqueue(_ db: Database, _ message: OutboxMessage) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO outbox (appointment_id, user_id, title, body, deduplication_key, next_attempt_at)
                VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (deduplication_key) DO NOTHING
                """
        ).execute(arguments: [
            message.appointmentID, message.userID, message.title, message.body, message.deduplicationKey,
            message.nextAttemptAt.microsecondsSinceEpoch,
        ])
    }

    private static func booking(_ db: Database, patientID: String, requestID: String) throws -> Booking? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM bookings WHERE patient_id = ? AND request_id = ?"),
            arguments: [patientID, requestID]
        ).map(booking(from:))
    }

    private static func booking(from row: Row) -> Booking {
        Booking(
            id: row["id"], patientID: row["patient_id"], clinicID: row["clinic_id"], clinicName: row["clinic_name"],
            service: Clinics.Service(wireName: row["service"]),
            startsAt: Timestamp(microsecondsSinceEpoch: row["starts_at"]),
            endsAt: Timestamp(microsecondsSinceEpoch: row["ends_at"]), reason: row["reason"],
            status: Appointments.Status(wireName: row["status"]),
            createdAt: Timestamp(microsecondsSinceEpoch: row["created_at"]), requestID: row["request_id"],
            notified: row["notified"])
    }

    private static func message(from row: Row) -> OutboxMessage {
        var message = OutboxMessage(
            appointmentID: row["appointment_id"], userID: row["user_id"], title: row["title"], body: row["body"],
            deduplicationKey: row["deduplication_key"], now: Timestamp(microsecondsSinceEpoch: row["next_attempt_at"]))
        message.id = row["id"]
        message.attempts = row["attempts"]
        return message
    }
}
