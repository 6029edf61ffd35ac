import IOInterface
import VerticalsContract
import VerticalsWire

/// A user as identity's use cases see it: the stored row, roles included, without the password hash.
package struct User: Sendable, Equatable {
    /// The stable id (a UUID in lower-case text).
    package var id: String
    /// The normalized login e-mail address (trimmed, lower-case).
    package var email: EmailAddress
    /// The name shown to other people.
    package var displayName: String
    /// What the user may do, in a stable order.
    package var roles: [Identity.Role]
    /// When the account was created.
    package var createdAt: Timestamp

    /// Creates a user from its fields.
    package init(id: String, email: EmailAddress, displayName: String, roles: [Identity.Role], createdAt: Timestamp) {
        self.id = id
        self.email = email
        self.displayName = displayName
        self.roles = roles
        self.createdAt = createdAt
    }
}
