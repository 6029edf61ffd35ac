import Sessions

/// Marks one of the caller's notifications read. Idempotent: marking it again changes
/// nothing and answers with the time it was first read.
package struct MarkRead: Sendable {
    let world: World

    /// A use case over `world`.
    package init(world: World) {
        self.world = world
    }

    /// The notification after marking; throws ``NotificationsFailure/notFound(_:)``,
    /// ``NotificationsFailure/notYours(_:)`` (another user's), or identity's `ServiceError`.
    package func execute(token: String, id: String) async throws -> Notification {
        let userID = try await world.sessionCheck.principal(token: token).userID
        guard let found = try await world.notifications.notification(id: id) else {
            throw NotificationsFailure.notFound(id)
        }
        guard found.userID == userID else { throw NotificationsFailure.notYours(id) }
        if found.readAt != nil { return found }
        guard let marked = try await world.notifications.markRead(id: id, at: world.now()) else {
            throw NotificationsFailure.notFound(id)
        }
        return marked
    }
}
