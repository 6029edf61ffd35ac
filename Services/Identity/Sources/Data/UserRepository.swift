import GRDB
import IOInterface
import VerticalsContract
import VerticalsStorage
import VerticalsWire

/// Users and their roles in identity's SQLite store.
package struct UserRepository: Sendable {
    /// A user with the hash of their password, for login.
    package struct Credentials: Sendable {
        /// The user.
        package var user: User
        /// Their Argon2id hash in libsodium's string form.
        package var passwordHash: String
        /// Their password's generation when the hash was read: raised by every password change
        /// and by logging out everywhere, so a session verified against this hash opens only
        /// while it is unchanged.
        package var generation: Int64
    }

    private let database: any DatabaseWriter
    /// The sessions cache (``SessionRepository/cache``): sessions carry their user's roles, so a
    /// role change clears it.
    private let sessions: ReadCache<String, SessionRepository.StoredSession>

    /// A repository over `database`; role changes clear `sessions`.
    package init(database: any DatabaseWriter, sessions: ReadCache<String, SessionRepository.StoredSession>) {
        self.database = database
        self.sessions = sessions
    }

    /// Stores a new user with `passwordHash`; throws ``IdentityFailure/emailTaken`` when the
    /// address is in use (the UNIQUE constraint decides, so two racing registrations cannot both win).
    /// With `unlessAdminExists`, throws ``IdentityFailure/adminExists`` instead when any account has the `admin` role.
    package func insert(_ user: User, passwordHash: String, unlessAdminExists: Bool = false) async throws {
        do {
            try await database.write { db in
                if unlessAdminExists, try Self.adminCount(db) > 0 { throw IdentityFailure.adminExists }
                try db.execute(
                    sql:
                        "INSERT INTO users (id, email, display_name, password_hash, created_at) VALUES (?, ?, ?, ?, ?)",
                    arguments: [
                        user.id, user.email.value, user.displayName, passwordHash,
                        user.createdAt.microsecondsSinceEpoch,
                    ])
                for role in user.roles {
                    try db.execute(
                        sql: "INSERT INTO user_roles (user_id, role) VALUES (?, ?)",
                        arguments: [user.id, role.wireName])
                }
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw IdentityFailure.emailTaken
        }
    }

    /// Whether an account uses `email`.
    package func exists(email: EmailAddress) async throws -> Bool {
        try await database.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM users WHERE email = ?)", arguments: [email.value])
                ?? false
        }
    }

    /// The user with `email` and their password hash, if any.
    package func credentials(email: EmailAddress) async throws -> Credentials? {
        try await credentials(where: .email, is: email.value)
    }

    /// The user with `userID` and their password hash, if the user exists.
    package func credentials(userID: String) async throws -> Credentials? {
        try await credentials(where: .id, is: userID)
    }

    /// A unique column a user is found by.
    private enum UniqueColumn: String {
        case id, email
    }

    /// The user whose `column` is `value`, with their hash and its generation.
    private func credentials(where column: UniqueColumn, is value: String) async throws -> Credentials? {
        try await database.read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT id, email, display_name, password_hash, password_generation, created_at
                        FROM users WHERE \(column.rawValue) = ?
                        """,
                    arguments: [value])
            else { return nil }
            return Credentials(
                user: try Self.user(row, db), passwordHash: row["password_hash"], generation: row["password_generation"]
            )
        }
    }

    /// The user with `id`, if any.
    package func user(id: String) async throws -> User? {
        try await database.read { db in
            try Row.fetchOne(
                db, sql: "SELECT id, email, display_name, created_at FROM users WHERE id = ?", arguments: [id]
            ).map { try Self.user($0, db) }
        }
    }

    /// Replaces `read`'s password hash with `hash`, the same password re-hashed with stronger
    /// limits, only while both the hash and the generation are still the ones read; `false`
    /// when they changed meanwhile (a password change), which then stands.
    package func updatePasswordHash(of read: Credentials, to hash: String) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql:
                    "UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ? AND password_generation = ?",
                arguments: [hash, read.user.id, read.passwordHash, read.generation])
            return db.changesCount == 1
        }
    }

    /// Replaces `read`'s password hash with `hash`, raises its generation and revokes every session
    /// of the user that works at `now`, in one transaction, so no session opened with the old
    /// password outlives it, nor opens after it. Returns how many sessions ended; nil, changing
    /// nothing, when the generation is no longer `read`'s (another change, or a logout everywhere,
    /// came first: the caller verifies again against what is stored now). Throws
    /// ``IdentityFailure/invalidToken`` when the session `tokenHash`, which asks for the change,
    /// no longer works at `now`.
    package func changePassword(
        of read: Credentials, to hash: String, askedBy tokenHash: String, at now: Timestamp
    ) async throws -> Int? {
        defer { sessions.removeAll() }
        return try await database.write { db in
            guard try SessionRepository.works(tokenHash: tokenHash, userID: read.user.id, at: now, db) else {
                throw IdentityFailure.invalidToken
            }
            try db.execute(
                sql: """
                    UPDATE users SET password_hash = ?, password_generation = password_generation + 1
                    WHERE id = ? AND password_generation = ?
                    """,
                arguments: [hash, read.user.id, read.generation])
            guard db.changesCount == 1 else { return nil }
            return try SessionRepository.revokeAll(userID: read.user.id, at: now, db)
        }
    }

    /// Whether any account has the `admin` role.
    package func adminExists() async throws -> Bool {
        try await database.read { db in try Self.adminCount(db) > 0 }
    }

    /// Adds `role` to the account with `email` (nothing changes if it has it) and returns the account.
    package func grant(_ role: Identity.Role, email: EmailAddress) async throws -> User {
        defer { sessions.removeAll() }
        return try await database.write { db in
            let user = try Self.user(email: email, db)
            try db.execute(
                sql: "INSERT OR IGNORE INTO user_roles (user_id, role) VALUES (?, ?)",
                arguments: [user.id, role.wireName])
            return User(
                id: user.id, email: user.email, displayName: user.displayName,
                roles: try Self.roles(of: user.id, db), createdAt: user.createdAt)
        }
    }

    /// Removes `role` from the account with `email` and returns the account; throws
    /// ``IdentityFailure/lastAdmin`` rather than leave the suite without an admin.
    package func revoke(_ role: Identity.Role, email: EmailAddress) async throws -> User {
        defer { sessions.removeAll() }
        return try await database.write { db in
            let user = try Self.user(email: email, db)
            if role == .admin, user.roles.contains(.admin), try Self.adminCount(db) <= 1 {
                throw IdentityFailure.lastAdmin
            }
            try db.execute(
                sql: "DELETE FROM user_roles WHERE user_id = ? AND role = ?", arguments: [user.id, role.wireName])
            return User(
                id: user.id, email: user.email, displayName: user.displayName,
                roles: try Self.roles(of: user.id, db), createdAt: user.createdAt)
        }
    }

    static func adminCount(_ db: Database) throws -> Int {
        try Int.fetchOne(
            db, sql: "SELECT COUNT(*) FROM user_roles WHERE role = ?", arguments: [Identity.Role.admin.wireName]) ?? 0
    }

    static func user(email: EmailAddress, _ db: Database) throws -> User {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT id, email, display_name, created_at FROM users WHERE email = ?",
                arguments: [email.value])
        else { throw IdentityFailure.emailNotFound(email.value) }
        return try user(row, db)
    }

    /// The user in `row` with their roles, read in the same transaction.
    static func user(_ row: Row, _ db: Database) throws -> User {
        let id: String = row["id"]
        return User(
            id: id, email: EmailAddress(normalized: row["email"]), displayName: row["display_name"],
            roles: try roles(of: id, db), createdAt: Timestamp(microsecondsSinceEpoch: row["created_at"]))
    }

    /// `userID`'s roles in the contract's order (patient, clinician, admin, then unknown ones by name).
    static func roles(of userID: String, _ db: Database) throws -> [Identity.Role] {
        let names = try String.fetchAll(
            db.cachedStatement(sql: "SELECT role FROM user_roles WHERE user_id = ?"), arguments: [userID])
        let known = Identity.Role.knownCases.filter { names.contains($0.wireName) }
        let unknown = names.filter { name in !known.contains { $0.wireName == name } }.sorted()
        return known + unknown.map { Identity.Role(unknown: $0) }
    }
}
