import IOInterface

/// One notification in a user's inbox, as notifications' use cases see it.
public struct Notification: Sendable, Equatable {
    /// The stable id (a UUID in lower-case text).
    public var id: String
    /// The recipient.
    public var userID: String
    /// The headline.
    public var title: String
    /// The message.
    public var body: String
    /// When it was delivered.
    public var createdAt: Timestamp
    /// When the recipient marked it read; `nil` while unread.
    public var readAt: Timestamp?
    /// The sender's idempotency key, if it gave one.
    public var deduplicationKey: String?

    /// Creates a notification from its fields.
    public init(
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
public struct InboxPage: Sendable, Equatable {
    /// Newest first.
    public var notifications: [Notification]
    /// Unread notifications of the user in all, listed or not.
    public var unreadCount: Int
    /// The cursor of the next page; `nil` on the last page.
    public var nextCursor: String?
}
