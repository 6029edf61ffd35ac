import GRDB
import IOInterface
import VerticalsContract
import VerticalsStorage
import VerticalsWire

/// Entries in the vertical's own SQLite store. Every method runs on GRDB's queues, off the event loop.
///
/// Clinic names are not stored: clinics owns them (and may rename a clinic), so a history
/// asks clinics for them when it is read.
package struct EntryRepository: Sendable {
    /// The store.
    package let database: any DatabaseWriter

    /// A repository over `database` (migrated with ``Migrations``).
    package init(database: any DatabaseWriter) {
        self.database = database
    }

    /// Stores a new entry (its `clinicName` is not kept).
    package func insert(_ entry: Records.Entry) async throws {
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO entry (id, user_id, kind, text, clinic_id, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [
                    entry.id, entry.userID, entry.kind.wireName, entry.text, entry.clinicID,
                    entry.createdAt.microsecondsSinceEpoch,
                ])
        }
    }

    /// `userID`'s entries, only of `kind` when given, newest first (ties: the later insert first).
    package func entries(userID: String, kind: Records.EntryKind?) async throws -> [Records.Entry] {
        try await page(userID: userID, kind: kind, limit: .max, after: nil, scope: "").entries
    }

    /// Up to `limit` of `userID`'s entries (only of `kind` when given), newest first, after
    /// position `after`, and the cursor of the next page (bound to `scope`) when more follow.
    /// Keyset paging over (created_at, rowid): entries added while a caller pages land before
    /// its position and never shift or repeat what it has not seen yet.
    package func page(
        userID: String, kind: Records.EntryKind?, limit: Int, after: PageCursor?, scope: String
    ) async throws -> (entries: [Records.Entry], nextCursor: String?) {
        try await database.read { db in
            var arguments: StatementArguments = [userID]
            var filter = ""
            if let kind {
                filter += " AND kind = ?"
                arguments += [kind.wireName]
            }
            if let after, case .integer(let createdAt) = after.keys[0], case .integer(let rowID) = after.keys[1] {
                filter += " AND (created_at, rowid) < (?, ?)"
                arguments += [createdAt, rowID]
            }
            arguments += [limit == .max ? -1 : limit + 1]
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT rowid, * FROM entry WHERE user_id = ?\(filter) ORDER BY created_at DESC, rowid DESC LIMIT ?
                    """,
                arguments: arguments)
            let page = PageCursor.page(rows, limit: limit, scope: scope) { row in
                [.integer(row["created_at"]), .integer(row["rowid"])]
            }
            return (page.items.map(Self.entry), page.nextCursor)
        }
    }

    /// What ``delete(id:ownedBy:)`` did.
    package enum Deletion: Sendable, Equatable {
        /// The entry is gone.
        case deleted
        /// No entry has that id.
        case missing
        /// The entry belongs to someone else; it was left alone.
        case ownedBySomeoneElse
    }

    /// Deletes entry `id` if `userID` owns it, in one transaction so that the check and the delete agree.
    package func delete(id: String, ownedBy userID: String) async throws -> Deletion {
        try await database.write { db in
            guard let owner = try String.fetchOne(db, sql: "SELECT user_id FROM entry WHERE id = ?", arguments: [id])
            else { return .missing }
            guard owner == userID else { return .ownedBySomeoneElse }
            try db.execute(sql: "DELETE FROM entry WHERE id = ?", arguments: [id])
            return .deleted
        }
    }

    private static func entry(_ row: Row) -> Records.Entry {
        Records.Entry(
            id: row["id"], userID: row["user_id"], kind: Records.EntryKind(wireName: row["kind"]), text: row["text"],
            clinicID: row["clinic_id"], clinicName: nil,
            createdAt: Timestamp(microsecondsSinceEpoch: row["created_at"]))
    }
}
