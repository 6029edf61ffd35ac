import IOInterface
import ServiceKit

/// Notifications' routes: each operation of the ``Notifications`` contract mapped to its use
/// case, the result to the contract's Output, and ``NotificationsFailure`` to a typed
/// `ServiceError`. Identity's errors (`unauthenticated`, `unavailable`, …) pass through.
public enum Endpoint {
    /// The router `svc-notifications` serves.
    public static func routes(world: World) -> Router {
        var router = Router(service: Notifications.self)
        router.on(Notifications.send) { input, _ in
            try await mapping {
                Notifications.Notification(
                    try await SendNotification(world: world).execute(
                        userID: input.userID, title: input.title, body: input.body,
                        deduplicationKey: input.deduplicationKey))
            }
        }
        router.on(Notifications.inbox) { input, _ in
            try await mapping {
                let page = try await ListInbox(world: world).execute(
                    token: input.token, unreadOnly: input.unreadOnly, limit: input.limit, cursor: input.cursor)
                return Notifications.Inbox(
                    notifications: page.notifications.map(Notifications.Notification.init),
                    unreadCount: page.unreadCount, nextCursor: page.nextCursor)
            }
        }
        router.on(Notifications.markRead) { input, _ in
            try await mapping {
                Notifications.Notification(try await MarkRead(world: world).execute(token: input.token, id: input.id))
            }
        }
        return router
    }

    /// Runs `body`, turning a ``NotificationsFailure`` into the `ServiceError` a caller sees.
    /// Anything else propagates: `ServiceError`s as they are, other errors as `internal`.
    static func mapping<Output>(_ body: () async throws -> Output) async throws -> Output {
        do {
            return try await body()
        } catch let failure as NotificationsFailure {
            throw ServiceError(failure)
        }
    }
}

extension ServiceError {
    /// The wire form of a domain refusal: a code to branch on, a message for a person.
    init(_ failure: NotificationsFailure) {
        switch failure {
        case .invalid(let field, let reason):
            self.init(.invalidInput, "\(reason); correct \(field) and try again", details: [ErrorDetail("field", field)])
        case .unknownRecipient(let userID):
            self.init(
                .notFound, "identity has no user with the id \"\(userID)\": nothing was sent",
                details: [ErrorDetail("field", "userID")])
        case .notFound(let id):
            self.init(.notFound, "no notification has the id \"\(id)\"", details: [ErrorDetail("field", "id")])
        case .notYours(let id):
            self.init(
                .permissionDenied, "notification \"\(id)\" belongs to another user: you can only read your own inbox",
                details: [ErrorDetail("field", "id")])
        case .keyUsedForAnotherUser(let key):
            self.init(
                .conflict,
                "the deduplication key \"\(key)\" was already used for another user: use one key per delivery",
                details: [ErrorDetail("field", "deduplicationKey")])
        }
    }
}

extension Notifications.Notification {
    /// The contract's view of `notification`.
    init(_ notification: Notification) {
        self.init(
            id: notification.id, userID: notification.userID, title: notification.title, body: notification.body,
            createdAt: notification.createdAt, readAt: notification.readAt,
            deduplicationKey: notification.deduplicationKey)
    }
}
