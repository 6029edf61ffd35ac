/// Why an identity use case refused: the domain's reasons, which the Endpoint turns into
/// typed `ServiceError`s with messages for people.
package enum IdentityFailure: Error, Equatable, Sendable {
    /// A field broke a rule the caller can fix.
    case invalid(field: String, reason: String)
    /// Another account already uses this e-mail address.
    case emailTaken
    /// The e-mail address and password do not match an account. Deliberately one case, so
    /// nothing downstream can tell an unknown address from a wrong password.
    case wrongCredentials
    /// The token is unknown, expired or revoked (which one is not said).
    case invalidToken
    /// No user has this id.
    case userNotFound(String)
    /// The caller is not the operator (root, identity's own uid, the operator group or the
    /// operator certificate, as the host admitted it).
    case notOperator
    /// The first admin exists already; more admins are granted by an admin.
    case adminExists
    /// The caller's token is valid but not an admin's.
    case notAdmin
    /// Revoking would leave the suite without any admin.
    case lastAdmin
    /// No account uses this e-mail address.
    case emailNotFound(String)
    /// The account, or the caller, failed too many logins lately (``LoginThrottle``): try again
    /// after this many seconds.
    case tooManyAttempts(retryAfterSeconds: Int)
    /// The current password given to change it is not the account's.
    case wrongPassword
    /// The password was right when checked, but the account's password changed, or all its
    /// sessions were ended, before the session could open: log in again.
    case credentialsChanged
}
