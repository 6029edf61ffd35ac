import IOInterface
import VerticalsContract
import VerticalsServiceKit

/// Creates an account: checks the fields, hashes the password with Argon2id off the event
/// loop, and stores the user with the `patient` role (and `admin` for the first admin, ``CreateFirstAdmin``).
package struct RegisterUser: Sendable {
    /// The fewest characters a password may have.
    package static let minimumPasswordLength = 10
    /// The most UTF-8 bytes a password may have: long enough for any passphrase, short
    /// enough that nobody can make the server hash megabytes per request.
    package static let maximumPasswordBytes = 1024
    /// The most characters a display name may have.
    package static let maximumDisplayNameLength = 100
    /// The most UTF-8 bytes a display name may have as sent, spaces included: the contract's
    /// bound (its default). Checked before the name is trimmed or counted.
    package static let maximumDisplayNameBytes = 4096

    let world: World

    /// A use case over `world`.
    package init(world: World) {
        self.world = world
    }

    /// Registers `email` with `password` for `caller` (``VerticalsServiceKit/RequestContext/caller``);
    /// throws ``IdentityFailure/invalid(field:reason:)``, ``IdentityFailure/emailTaken`` or
    /// ``IdentityFailure/tooManyAttempts(retryAfterSeconds:)``.
    ///
    /// A taken address is said (`conflict`): without a mail of its own to send, identity has no
    /// other way to tell a person why their account was not made. What that tells a stranger
    /// (that an address has an account) costs them as a failed login does: each taken address
    /// takes one attempt from the caller's ``LoginThrottle`` allowance, so registering cannot
    /// probe addresses faster than logging in can guess at them; registrations in flight count
    /// against what the caller has left, as logins do, so a burst of them at once probes no more
    /// (the rest wait, then are refused). The account's own allowance is
    /// left alone, so nobody locks another person out by registering their address.
    package func execute(
        email rawEmail: String, password: String, displayName rawName: String, caller: String? = nil
    ) async throws -> User {
        try await execute(email: rawEmail, password: password, displayName: rawName, firstAdmin: false, caller: caller)
    }

    /// Registers as ``execute(email:password:displayName:caller:)`` does; with `firstAdmin`, the user
    /// also gets `admin`, and the insert fails with ``IdentityFailure/adminExists`` (in the same
    /// transaction, so two racing callers cannot both win) when an admin exists already.
    func execute(
        email rawEmail: String, password: String, displayName rawName: String, firstAdmin: Bool, caller: String? = nil
    ) async throws -> User {
        guard let email = EmailAddress(rawEmail) else {
            throw IdentityFailure.invalid(
                field: "email", reason: "\"\(rawEmail)\" is not an e-mail address like name@example.org")
        }
        try Self.requireAcceptable(password: password)
        guard rawName.utf8.count <= Self.maximumDisplayNameBytes else {
            throw IdentityFailure.invalid(
                field: "displayName", reason: "the display name must have at most \(Self.maximumDisplayNameBytes) bytes"
            )
        }
        let displayName = rawName.trimmedWhitespace
        guard !displayName.isEmpty, displayName.count <= Self.maximumDisplayNameLength else {
            throw IdentityFailure.invalid(
                field: "displayName",
                reason: "the display name must have 1 to \(Self.maximumDisplayNameLength) characters besides spaces")
        }
        // A taken address costs the caller an attempt, as a wrong password would, and a
        // registration in flight counts against the caller's attempts left as a login does
        // (``LoginThrottle``), so concurrent registrations probe no more addresses than that.
        let attempt = LoginThrottle.attempt(email: nil, caller: caller)
        try await world.loginThrottle.begin(attempt, at: world.now())
        let user: User
        do {
            user = try await insert(email: email, password: password, displayName: displayName, firstAdmin: firstAdmin)
        } catch IdentityFailure.emailTaken {
            world.loginThrottle.failed(attempt, at: world.now())
            throw IdentityFailure.emailTaken
        } catch {
            world.loginThrottle.ended(attempt, at: world.now())
            throw error
        }
        world.loginThrottle.ended(attempt, at: world.now())
        world.logger.info("registered user \(user.id)\(firstAdmin ? " as the first admin" : "")")
        return user
    }

    /// Hashes `password` and stores the user; throws ``IdentityFailure/emailTaken`` for an address in use.
    private func insert(email: EmailAddress, password: String, displayName: String, firstAdmin: Bool) async throws
        -> User
    {
        // Registration says `conflict` for a taken address anyway, so checking first leaks
        // nothing and spares an Argon2id hash; the UNIQUE constraint still decides races.
        guard try await !world.users.exists(email: email) else { throw IdentityFailure.emailTaken }
        let hash = try await world.hashPassword(password)
        let roles: [Identity.Role] = firstAdmin ? [.patient, .admin] : [.patient]
        let user = User(
            id: world.newID(), email: email, displayName: displayName, roles: roles, createdAt: world.now())
        try await world.users.insert(user, passwordHash: hash, unlessAdminExists: firstAdmin)
        return user
    }

    /// Throws unless `password` may be a new password: at most ``maximumPasswordBytes`` bytes
    /// (checked first), at least ``minimumPasswordLength`` characters. `field` names it in the refusal.
    static func requireAcceptable(password: String, field: String = "password") throws(IdentityFailure) {
        try requireBounded(password: password, field: field)
        guard password.count >= minimumPasswordLength else {
            throw .invalid(field: field, reason: "the password must have at least \(minimumPasswordLength) characters")
        }
    }

    /// Throws unless `password` has at most ``maximumPasswordBytes`` bytes of UTF-8: checked
    /// before anything counts its characters or hashes it, at registration and at log-in.
    static func requireBounded(password: String, field: String = "password") throws(IdentityFailure) {
        guard password.utf8.count <= maximumPasswordBytes else {
            throw .invalid(field: field, reason: "the password must have at most \(maximumPasswordBytes) bytes")
        }
    }
}
