import IOInterface
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// The wire form of identity's refusals: a code to branch on, a message for a person.
extension IdentityFailure: ServiceErrorConvertible {
    /// The `ServiceError` a caller sees for this refusal.
    package var serviceError: ServiceError {
        switch self {
        case .invalid(let field, let reason):
            ServiceError(.invalidInput, "\(reason); correct \(field) and try again", field: field)
        case .emailTaken:
            ServiceError(
                .conflict, "an account with this e-mail address already exists: log in, or register another address",
                field: "email")
        case .wrongCredentials:
            ServiceError(.unauthenticated, "wrong e-mail address or password: check both and log in again")
        case .invalidToken:
            ServiceError(
                .unauthenticated, "the session token is not valid (unknown, expired or logged out): log in again")
        case .notOperator:
            ServiceError(
                .permissionDenied,
                "only the operator (root, the operator group, the user identity runs as, or the operator certificate) "
                    + "may create the first admin: run svc-supervisor admin create as one of them")
        case .adminExists:
            ServiceError(
                .conflict, "an admin exists already: log in as an admin and use svc-supervisor admin grant EMAIL admin")
        case .notAdmin:
            ServiceError(
                .permissionDenied, "only an admin may change roles: log in as an admin (svc-supervisor login EMAIL)")
        case .lastAdmin:
            ServiceError(.conflict, "this is the last admin: grant admin to someone else before revoking it here")
        case .emailNotFound(let email):
            ServiceError(.notFound, "no account uses \"\(email)\"", field: "email")
        case .userNotFound(let id):
            ServiceError(.notFound, "no user has the id \"\(id)\"", field: "userID")
        case .tooManyAttempts(let seconds):
            ServiceError(
                .resourceExhausted,
                "too many failed logins for this account or from this caller: try again in \(seconds) s",
                details: [ErrorDetail("retryAfterSeconds", "\(seconds)")], retryable: true)
        case .wrongPassword:
            ServiceError(
                .unauthenticated, "the current password is wrong: give the one you log in with", field: "oldPassword")
        case .credentialsChanged:
            ServiceError(
                .unauthenticated,
                "the account's password changed, or all its sessions were ended, while this request was checked: log in again"
            )
        }
    }
}
