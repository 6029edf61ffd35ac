import IOInterface
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// The wire form of notifications' refusals: a code to branch on, a message for a person.
extension NotificationsFailure: ServiceErrorConvertible {
    /// The `ServiceError` a caller sees for this refusal.
    package var serviceError: ServiceError {
        switch self {
        case .invalid(let field, let reason):
            ServiceError(.invalidInput, "\(reason); correct \(field) and try again", field: field)
        case .unknownRecipient(let userID):
            ServiceError(.notFound, "identity has no user with the id \"\(userID)\": nothing was sent", field: "userID")
        case .notFound(let id):
            ServiceError(.notFound, "no notification has the id \"\(id)\"", field: "id")
        case .notYours(let id):
            ServiceError(
                .permissionDenied, "notification \"\(id)\" belongs to another user: you can only read your own inbox",
                field: "id")
        case .keyUsedForAnotherUser(let key):
            ServiceError(
                .conflict,
                "the deduplication key \"\(key)\" was already used for another user: use one key per delivery",
                field: "deduplicationKey")
        }
    }
}
