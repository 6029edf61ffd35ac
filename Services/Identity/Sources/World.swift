#if canImport(Glibc)
import Glibc
#endif
import IOInterface
import Logging
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsStorage

/// Everything identity's use cases depend on, built once: in `main.swift` by ``live(runtime:)``,
/// in tests from test ``WorldParts``. Use cases reach nothing else.
///
/// The clock, ids (random UUIDs), store, caller (identity calls no vertical today) and logger are
/// its ``parts``; the rest is identity's own.
package struct World: VerticalWorld {
    /// The operations it calls, one by one: none (identity is every other vertical's callee).
    /// Its caller refuses any other (``DeclaredCaller``), its daemon warns when deploy/suite.toml's
    /// `depends_on` differs, and the callee refuses what `depends_on` does not name.
    package static let calls: Callees = .none
    /// The clock, ids, store, caller and logger.
    package var parts: WorldParts
    /// Session lifetime, admin bootstrap, Argon2id limits.
    package var settings: Settings
    /// Argon2id with ``Settings/passwordLimits``: its limits and its dummy hash (hash and verify
    /// with ``hashPassword`` and ``verifyPassword``, which run off the loop).
    package var passwords: PasswordHasher
    /// Whether a password matches a stored hash, verified off the loop (see ``init(parts:settings:hashing:)``;
    /// nil for an unknown account: verified against the dummy hash, which costs as long). A test
    /// may wrap it, to count verifications or to hold one in flight.
    package var verifyPassword: @Sendable (_ password: String, _ storedHash: String?) async throws -> Bool
    /// A new hash of a password with ``Settings/passwordLimits``, made off the loop like ``verifyPassword``.
    package var hashPassword: @Sendable (_ password: String) async throws -> String

    /// Creates a World from its parts. Its hashes run in `hashing`'s processes, or, when nil
    /// (tests of the use cases), on `Offload.compute`'s threads of this process.
    package init(parts: WorldParts, settings: Settings, hashing: ComputeProcesses? = nil) throws {
        self.parts = parts
        self.settings = settings
        let passwords = try PasswordHasher(limits: settings.passwordLimits)
        self.passwords = passwords
        if let hashing {
            verifyPassword = { password, storedHash in
                let matches = try await PasswordJob.verify(
                    password, against: storedHash ?? passwords.dummyHash, in: hashing)
                return storedHash == nil ? false : matches
            }
            hashPassword = { password in try await PasswordJob.hash(password, limits: passwords.limits, in: hashing) }
        } else {
            verifyPassword = { password, storedHash in
                try await Offload.compute {
                    guard let storedHash else { return passwords.verifyNothing(password) }
                    return passwords.verify(password, against: storedHash)
                }
            }
            hashPassword = { password in try await Offload.compute { try passwords.hash(password) } }
        }
        loginThrottle = LoginThrottle(limits: settings.loginAttempts)
    }

    /// Failed logins per account and per caller (``Settings/loginAttempts``), kept for the world's life.
    package let loginThrottle: LoginThrottle

    /// Sessions read by token hash, kept for the world's life (see ``SessionRepository/cache``).
    package let sessionCache = ReadCache<String, SessionRepository.StoredSession>()

    /// Users and roles in the store.
    package var users: UserRepository { UserRepository(database: database, sessions: sessionCache) }
    /// Sessions in the store.
    package var sessions: SessionRepository { SessionRepository(database: database, cache: sessionCache) }

    /// The daemon's World: settings from the environment (see ``Settings/from(environment:)``),
    /// hashes in compute processes of its own (`main.swift` answers `ComputeProcesses.serve`), and
    /// the common parts (``WorldParts/live(runtime:migrator:newID:calls:)``: full durability, as a session
    /// acknowledged to a client must survive a power cut, or a logged-out token could come back).
    package static func live(runtime: ServiceRuntime) throws -> World {
        try World(
            parts: .live(runtime: runtime, migrator: Migrations.all, newID: RandomID.uuidString, calls: calls),
            settings: .from(environment: runtime.environment),
            hashing: ComputeProcesses(nice: runtime.configuration.blockingWork.computeNice))
    }
}
