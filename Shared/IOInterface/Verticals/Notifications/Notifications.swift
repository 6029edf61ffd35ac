/// The notifications vertical's contract: a per-user inbox and each message's delivery state.
///
/// Other verticals ``send`` (appointments tells a patient about a booking); users read
/// their own ``inbox`` and ``markRead`` with a session token from ``Identity/login``,
/// checked through ``Identity/authenticate``. Nobody else reads notifications' store.
public enum Notifications: ServiceContract {
    public static let name = "notifications"
    public static let summary = "Per-user inboxes: notifications other verticals send, and whether each was read."

    /// Puts a notification in a user's inbox; a repeated `deduplicationKey` returns the first one
    /// (`conflict` if that key was used for another user). `notFound` when identity has no such
    /// user; `unavailable` when identity cannot be asked, and then nothing is stored.
    public static let send = Operation<SendInput, Notification>(
        name, "send",
        summary: "Deliver a notification to a user's inbox, exactly once per deduplication key.",
        errors: [.invalidInput, .notFound, .conflict, .unavailable])

    /// Lists the caller's notifications, newest first.
    public static let inbox = Operation<InboxInput, Inbox>(
        name, "inbox", summary: "List the caller's notifications, newest first, with the unread count.",
        errors: [.invalidInput, .unauthenticated, .unavailable], route: Route("/notifications"))

    /// Marks one of the caller's notifications as read.
    public static let markRead = Operation<MarkReadInput, Notification>(
        name, "markRead", summary: "Mark one of the caller's notifications as read (idempotent).",
        errors: [.unauthenticated, .notFound, .permissionDenied, .unavailable])

    public static let operations = [send.descriptor, inbox.descriptor, markRead.descriptor]

    // MARK: Inputs

    /// The Input of ``Notifications/send``.
    public struct SendInput: WireMessage {
        /// The recipient's user id, from ``Identity/Principal/userID``; must name an existing user.
        public var userID: String
        /// A short headline, 1...200 characters.
        public var title: String
        /// The message, 1...4000 characters.
        public var body: String
        /// The sender's idempotency key, unique per delivery it means (e.g. `appointments.booked:<id>`):
        /// sending again with the same key returns the first notification instead of a second one
        /// (the same key for another user is a `conflict`). At most 200 characters.
        public var deduplicationKey: String?

        /// Creates the value from its fields.
        public init(userID: String, title: String, body: String, deduplicationKey: String? = nil) {
            self.userID = userID
            self.title = title
            self.body = body
            self.deduplicationKey = deduplicationKey
        }

        public static let schema = MessageSchema(
            "notifications.SendInput",
            [
                .required(1, "userID", .string),
                .required(2, "title", .string),
                .required(3, "body", .string),
                .optional(4, "deduplicationKey", .string),
            ])
    }

    /// The Input of ``Notifications/inbox``.
    public struct InboxInput: WireMessage {
        /// The caller's session token from ``Identity/login``.
        public var token: String
        /// Only notifications not yet read, when true.
        public var unreadOnly: Bool
        /// The page size: the most notifications to return, 1...200 (more is `invalidInput`).
        public var limit: Int
        /// Where to continue: ``Inbox/nextCursor`` of the previous page; absent for the first page.
        /// Opaque; a cursor that was altered or made for another list or filter is `invalidInput`.
        public var cursor: String?

        /// Creates the value from its fields.
        public init(token: String, unreadOnly: Bool = false, limit: Int = 50, cursor: String? = nil) {
            self.token = token
            self.unreadOnly = unreadOnly
            self.limit = limit
            self.cursor = cursor
        }

        public static let schema = MessageSchema(
            "notifications.InboxInput",
            [
                .required(1, "token", .string),
                .defaulted(2, "unreadOnly", .bool, .bool(false)),
                .defaulted(3, "limit", .int, .int(50)),
                .optional(4, "cursor", .string),
            ])
    }

    /// The Input of ``Notifications/markRead``.
    public struct MarkReadInput: WireMessage {
        /// The caller's session token from ``Identity/login``.
        public var token: String
        /// The notification's id, from ``Notification/id``.
        public var id: String

        /// Creates the value from its fields.
        public init(token: String, id: String) {
            self.token = token
            self.id = id
        }

        public static let schema = MessageSchema(
            "notifications.MarkReadInput", [.required(1, "token", .string), .required(2, "id", .string)])
    }

    // MARK: Outputs

    /// One notification in a user's inbox.
    public struct Notification: WireMessage {
        /// The notification's stable id.
        public var id: String
        /// The recipient's user id.
        public var userID: String
        /// The headline.
        public var title: String
        /// The message.
        public var body: String
        /// When it was delivered to the inbox.
        public var createdAt: Timestamp
        /// When the recipient marked it read; absent while unread.
        public var readAt: Timestamp?
        /// The sender's idempotency key, when it gave one.
        public var deduplicationKey: String?

        /// Creates the value from its fields.
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

        public static let schema = MessageSchema(
            "notifications.Notification",
            [
                .required(1, "id", .string),
                .required(2, "userID", .string),
                .required(3, "title", .string),
                .required(4, "body", .string),
                .required(5, "createdAt", .timestamp),
                .optional(6, "readAt", .timestamp),
                .optional(7, "deduplicationKey", .string),
            ])
    }

    /// The answer of ``Notifications/inbox``.
    public struct Inbox: WireMessage {
        /// The caller's notifications, newest first, at most the limit asked for.
        public var notifications: [Notification]
        /// How many of the caller's notifications are unread in all, listed or not.
        public var unreadCount: Int
        /// The ``InboxInput/cursor`` of the next page; absent on the last page.
        public var nextCursor: String?

        /// Creates the value from its fields.
        public init(notifications: [Notification], unreadCount: Int, nextCursor: String? = nil) {
            self.notifications = notifications
            self.unreadCount = unreadCount
            self.nextCursor = nextCursor
        }

        public static let schema = MessageSchema(
            "notifications.Inbox",
            [
                .repeated(1, "notifications", .message(Notification.self)),
                .required(2, "unreadCount", .int),
                .optional(3, "nextCursor", .string),
            ])
    }
}
