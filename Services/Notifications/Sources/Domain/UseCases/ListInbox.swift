import Sessions
import VerticalsStorage

/// Lists the caller's own notifications, newest first, with their unread count, a page at a time.
package struct ListInbox: Sendable {
    let world: World

    /// A use case over `world`.
    package init(world: World) {
        self.world = world
    }

    /// One page of the inbox of `token`'s user: `limit` notifications after `cursor` (from the
    /// start without one). Throws ``NotificationsFailure/invalid(field:reason:)`` for a limit
    /// outside 1...``Limits/inboxPage`` or a cursor this inbox and filter did not return, or
    /// identity's `ServiceError`.
    package func execute(token: String, unreadOnly: Bool, limit: Int, cursor: String? = nil) async throws -> InboxPage {
        guard (1...Limits.inboxPage).contains(limit) else {
            throw NotificationsFailure.invalid(
                field: "limit", reason: "the limit must be 1 to \(Limits.inboxPage), not \(limit)")
        }
        let userID = try await world.sessionCheck.principal(token: token).userID
        let scope = "notifications.inbox|\(userID)|\(unreadOnly)"
        let after = try PageCursor.decode(cursor, scope: scope, keyCount: 2) {
            NotificationsFailure.invalid(field: "cursor", reason: "the cursor \($0)")
        }
        return try await world.notifications.inbox(
            userID: userID, unreadOnly: unreadOnly, limit: limit, after: after, scope: scope)
    }
}
