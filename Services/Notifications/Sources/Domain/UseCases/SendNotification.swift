import IOInterface
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// Delivers a notification to a user's inbox, exactly once per deduplication key.
///
/// Order matters: the fields are checked, then a key already used answers with its first
/// notification (so a retry succeeds even while identity is down), then identity confirms the
/// recipient exists (once per user: identity never deletes one, see ``KnownRecipients``), and
/// only then is anything stored. When identity cannot answer, the caller gets `unavailable` (or
/// `deadlineExceeded`) and nothing is stored.
package struct SendNotification: Sendable {
    let world: World

    /// A use case over `world`.
    package init(world: World) {
        self.world = world
    }

    /// Sends; throws ``NotificationsFailure`` or identity's `ServiceError`.
    package func execute(userID: String, title: String, body: String, deduplicationKey: String?) async throws
        -> Notification
    {
        try Self.validate(userID: userID, title: title, body: body, deduplicationKey: deduplicationKey)
        // A recipient identity confirmed before needs no look-up first: insertOnce itself answers
        // a used key with its first notification, in the same transaction.
        if !world.knownRecipients.contains(userID) {
            if let key = deduplicationKey, let first = try await world.notifications.notification(deduplicationKey: key)
            {
                return try Self.sameRecipient(first, userID)
            }
            try await checkRecipient(userID)
        }
        let notification = Notification(
            id: world.newID(), userID: userID, title: title, body: body, createdAt: world.now(),
            deduplicationKey: deduplicationKey)
        // A racing send of the same key may have won since the look-up: then this is its notification.
        return try Self.sameRecipient(try await world.notifications.insertOnce(notification), userID)
    }

    private func checkRecipient(_ userID: String) async throws {
        do {
            _ = try await world.caller.call(Identity.getUser, .init(userID: userID))
            world.knownRecipients.insert(userID)
        } catch {
            switch error.code {
            case .notFound:
                throw NotificationsFailure.unknownRecipient(userID)
            case .unavailable, .deadlineExceeded:
                throw ServiceError(
                    error.code,
                    "cannot check the recipient with identity (\(error.message)); nothing was stored: send again later",
                    details: error.details, retryable: true)
            default:
                throw error
            }
        }
    }

    private static func sameRecipient(_ notification: Notification, _ userID: String) throws -> Notification {
        guard notification.userID == userID else {
            throw NotificationsFailure.keyUsedForAnotherUser(notification.deduplicationKey ?? "")
        }
        return notification
    }

    private static func validate(userID: String, title: String, body: String, deduplicationKey: String?) throws {
        guard !userID.isEmpty else {
            throw NotificationsFailure.invalid(field: "userID", reason: "the recipient's user id is empty")
        }
        try bounded("title", title, Limits.title, bytes: Limits.titleBytes)
        try bounded("body", body, Limits.body, bytes: Limits.bodyBytes)
        if let deduplicationKey {
            try bounded("deduplicationKey", deduplicationKey, Limits.deduplicationKey, bytes: Limits.titleBytes)
        }
    }

    private static func bounded(_ field: String, _ text: String, _ limit: Int, bytes: Int) throws {
        guard text.utf8.count <= bytes else {
            throw NotificationsFailure.invalid(
                field: field, reason: "the \(field) must have at most \(bytes) bytes (it has \(text.utf8.count))")
        }
        guard text.contains(where: { !$0.isWhitespace }), text.count <= limit else {
            throw NotificationsFailure.invalid(
                field: field,
                reason: "the \(field) must have 1 to \(limit) characters besides spaces (it has \(text.count))")
        }
    }
}
