import IOInterface
import VerticalsContract
import VerticalsWire

/// One notification in a user's inbox, as notifications' use cases see it.
package struct Notification: Sendable, Equatable {
    /// The stable id (a UUID in lower-case text).
    package var id: String
    /// The recipient.
    package var userID: String
    /// The headline.
    package var title: String
    /// The message.
    package var body: String
    /// When it was delivered.
    package var createdAt: Timestamp
    /// When the recipient marked it read; `nil` while unread.
    package var readAt: Timestamp?
    /// The sender's idempotency key, if it gave one.
    package var deduplicationKey: String?

    /// Creates a notification from its fields.
    package init(
        id: String, userID: String, title: String, body: String, createdAt: Timestamp, readAt: Timestamp? = nil,
        deduplicationKey: String? = nil
    ) {
        self.id = id
        self.userID = userID
        self.title = title
        self.body = body
        self.createdAt = createdAt
        self.readAt = readAt
        self.deduplicationKey = deduplicationKey
    }
}

/// A page of a user's inbox.
package struct InboxPage: Sendable, Equatable {
    /// Newest first.
    package var notifications: [Notification]
    /// Unread notifications of the user in all, listed or not.
    package var unreadCount: Int
    /// The cursor of the next page; `nil` on the last page.
    package var nextCursor: String?
}
