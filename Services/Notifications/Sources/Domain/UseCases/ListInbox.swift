/// Lists the caller's own notifications, newest first, with their unread count.
public struct ListInbox: Sendable {
    let world: World

    /// A use case over `world`.
    public init(world: World) {
        self.world = world
    }

    /// The inbox of `token`'s user; throws ``NotificationsFailure/invalid(field:reason:)`` for
    /// a limit outside 1...``Limits/inboxPage``, or identity's `ServiceError`.
    public func execute(token: String, unreadOnly: Bool, limit: Int) async throws -> InboxPage {
        guard (1...Limits.inboxPage).contains(limit) else {
            throw NotificationsFailure.invalid(
                field: "limit", reason: "the limit must be 1 to \(Limits.inboxPage), not \(limit)")
        }
        let userID = try await AuthenticateCaller(world: world).execute(token: token)
        return try await world.notifications.inbox(userID: userID, unreadOnly: unreadOnly, limit: limit)
    }
}
