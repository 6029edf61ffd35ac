/// Why a notifications use case refused: the domain's reasons, which the Endpoint turns into
/// typed `ServiceError`s. (Errors of other verticals, e.g. identity's `unauthenticated`,
/// arrive as `ServiceError`s already and pass through unchanged.)
package enum NotificationsFailure: Error, Equatable, Sendable {
    /// A field broke a rule the caller can fix.
    case invalid(field: String, reason: String)
    /// Identity has no user with this id.
    case unknownRecipient(String)
    /// No notification has this id.
    case notFound(String)
    /// The notification exists but belongs to another user.
    case notYours(String)
    /// The deduplication key was already used for a notification to another user.
    case keyUsedForAnotherUser(String)
}
