import GRDB
import IOInterface
import VerticalsContract
import VerticalsStorage
import VerticalsWire

/// Sessions in identity's SQLite store, keyed by the SHA-256 of their token.
package struct SessionRepository: Sendable {
    /// A stored session, as found by its token hash.
    package struct StoredSession: Sendable, Equatable {
        /// The user it belongs to.
        package var user: User
        /// When it stops working.
        package var expiresAt: Timestamp
        /// When it was revoked by logout, if it was.
        package var revokedAt: Timestamp?
    }

    private let database: any DatabaseWriter
    /// Sessions read by token hash, shared by every repository over the same store in this process.
    ///
    /// Exact because identity is the store's only writer while it runs (`daemon.restore` needs it
    /// stopped) and every write that changes a working session clears it once committed:
    /// ``revoke(tokenHash:at:)`` its own entry, a role change (``UserRepository/grant(_:email:)``,
    /// ``UserRepository/revoke(_:email:)``) every entry, since a session carries its user's roles.
    /// The only other write, ``insert(tokenHash:userID:generation:createdAt:expiresAt:)``, adds a session
    /// nobody has looked up yet and deletes only sessions that no longer work, which a cached
    /// copy says as well (a revocation is kept as such, an expiry is checked on every use).
    /// Other verticals ask identity on every request and keep no copy, so a logout takes effect
    /// everywhere as soon as it returns.
    package let cache: ReadCache<String, StoredSession>

    /// A repository over `database`, caching sessions in `cache`.
    package init(database: any DatabaseWriter, cache: ReadCache<String, StoredSession> = ReadCache()) {
        self.database = database
        self.cache = cache
    }

    /// Stores a new session of `userID`, verified against their password of `generation`
    /// (``UserRepository/Credentials/generation``), and drops that user's sessions that no
    /// longer work (expired or revoked), so the table does not grow with every login.
    ///
    /// Only while the generation is still `generation`, checked in the insert's own transaction:
    /// `false`, storing nothing, once a password change or a logout everywhere has committed
    /// since the hash was read. As the store's writes are serial, either that change comes after
    /// the session, and revokes it, or before, and this refuses it.
    package func insert(
        tokenHash: String, userID: String, generation: Int64, createdAt: Timestamp, expiresAt: Timestamp
    ) async throws -> Bool {
        try await database.write { db in
            let current = try Int64.fetchOne(
                db, sql: "SELECT password_generation FROM users WHERE id = ?", arguments: [userID])
            guard current == generation else { return false }
            try db.execute(
                sql: "DELETE FROM sessions WHERE user_id = ? AND (expires_at <= ? OR revoked_at IS NOT NULL)",
                arguments: [userID, createdAt.microsecondsSinceEpoch])
            try db.execute(
                sql: "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [tokenHash, userID, createdAt.microsecondsSinceEpoch, expiresAt.microsecondsSinceEpoch])
            return true
        }
    }

    /// Whether the session `tokenHash` is `userID`'s and works at `now`, in the caller's transaction.
    static func works(tokenHash: String, userID: String, at now: Timestamp, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM sessions
                WHERE token_hash = ? AND user_id = ? AND revoked_at IS NULL AND expires_at > ?)
                """,
            arguments: [tokenHash, userID, now.microsecondsSinceEpoch]) ?? false
    }

    /// The session stored under `tokenHash`, with its user, if any.
    package func session(tokenHash: String) async throws -> StoredSession? {
        try await cache.load(tokenHash) { try await database.read { db in try Self.session(tokenHash: tokenHash, db) } }
    }

    private static func session(tokenHash: String, _ db: Database) throws -> StoredSession? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT s.expires_at, s.revoked_at, u.id, u.email, u.display_name, u.created_at
                        FROM sessions s JOIN users u ON u.id = s.user_id
                        WHERE s.token_hash = ?
                        """),
                arguments: [tokenHash])
        else { return nil }
        return StoredSession(
            user: try UserRepository.user(row, db), expiresAt: Timestamp(microsecondsSinceEpoch: row["expires_at"]),
            revokedAt: (row["revoked_at"] as Int64?).map(Timestamp.init(microsecondsSinceEpoch:)))
    }

    /// Revokes every session of `userID` that still works at `now`, and raises their password's
    /// generation in the same transaction, so a login verified before it opens no session after
    /// it (``insert(tokenHash:userID:generation:createdAt:expiresAt:)``); returns how many ended.
    package func revokeAll(userID: String, at now: Timestamp) async throws -> Int {
        // The cache is keyed by token hash, which this does not know: all of it is read again.
        defer { cache.removeAll() }
        return try await database.write { db in
            try db.execute(
                sql: "UPDATE users SET password_generation = password_generation + 1 WHERE id = ?", arguments: [userID])
            return try Self.revokeAll(userID: userID, at: now, db)
        }
    }

    /// ``revokeAll(userID:at:)`` in the caller's transaction (a password change's); the caller clears the cache.
    static func revokeAll(userID: String, at now: Timestamp, _ db: Database) throws -> Int {
        try db.execute(
            sql: "UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL AND expires_at > ?",
            arguments: [now.microsecondsSinceEpoch, userID, now.microsecondsSinceEpoch])
        return db.changesCount
    }

    /// Revokes the session under `tokenHash` if it still works at `now`; `false` when there
    /// was no such working session.
    package func revoke(tokenHash: String, at now: Timestamp) async throws -> Bool {
        // Also when the write fails: whatever the store holds now is read again.
        defer { cache.remove(tokenHash) }
        return try await database.write { db in
            try db.execute(
                sql:
                    "UPDATE sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL AND expires_at > ?",
                arguments: [now.microsecondsSinceEpoch, tokenHash, now.microsecondsSinceEpoch])
            return db.changesCount == 1
        }
    }
}
