import IOInterface
import VerticalsContract
import VerticalsServiceKit

/// Notifications' routes: each operation of the ``Notifications`` contract mapped to its use
/// case and the result to the contract's Output (a ``NotificationsFailure`` reaches the caller
/// as its ``NotificationsFailure/serviceError``, by the Router). Identity's errors
/// (`unauthenticated`, `unavailable`, …) pass through.
package enum Endpoint {
    /// The router `svc-notifications` serves.
    package static func routes(world: World) -> Router {
        var router = Router(service: Notifications.self)
        router.on(Notifications.send) { input, _ in
            Notifications.Notification(
                try await SendNotification(world: world).execute(
                    userID: input.userID, title: input.title, body: input.body,
                    deduplicationKey: input.deduplicationKey))
        }
        router.on(Notifications.inbox) { input, _ in
            let page = try await ListInbox(world: world).execute(
                token: input.token, unreadOnly: input.unreadOnly, limit: input.limit, cursor: input.cursor)
            return Notifications.Inbox(
                notifications: page.notifications.map(Notifications.Notification.init),
                unreadCount: page.unreadCount, nextCursor: page.nextCursor)
        }
        router.on(Notifications.markRead) { input, _ in
            Notifications.Notification(try await MarkRead(world: world).execute(token: input.token, id: input.id))
        }
        return router
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
