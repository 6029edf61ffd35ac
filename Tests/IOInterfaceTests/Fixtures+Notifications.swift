import IOInterface
import VerticalsContract
import VerticalsWire

// MARK: Notifications

extension Notifications.SendInput {
    static func fixture(
        userID: String = "u_7f3a", title: String = "Appointment booked",
        body: String = "Your GP appointment at Hill Street Surgery is on 23 Nov at 09:30.",
        deduplicationKey: String? = "appointments.booked:a_91b2"
    ) -> Self {
        .init(userID: userID, title: title, body: body, deduplicationKey: deduplicationKey)
    }

    static let minimal = Self(userID: "", title: "", body: "")
}

extension Notifications.InboxInput {
    static func fixture(
        token: String = "q5W2c0Ykq3JrGfE8n1xT7bVhLmPz4sAoRdUiNwXyZ6E", unreadOnly: Bool = true, limit: Int = 10,
        cursor: String? = "AQIAAAGbXLzvkAAAAAAAAAAAB2Ek1vQmE3cw"
    ) -> Self {
        .init(token: token, unreadOnly: unreadOnly, limit: limit, cursor: cursor)
    }

    static let minimal = Self(token: "")
}

extension Notifications.MarkReadInput {
    static func fixture(token: String = "q5W2c0Ykq3JrGfE8n1xT7bVhLmPz4sAoRdUiNwXyZ6E", id: String = "n_5c1d") -> Self {
        .init(token: token, id: id)
    }

    static let minimal = Self(token: "", id: "")
}

extension Notifications.Notification {
    static func fixture(
        id: String = "n_5c1d", userID: String = "u_7f3a", title: String = "Appointment booked",
        body: String = "Your GP appointment at Hill Street Surgery is on 23 Nov at 09:30. Ünïcode ✓",
        createdAt: Timestamp = Timestamp(microsecondsSinceEpoch: 1_795_426_200_123_456),
        readAt: Timestamp? = Timestamp(microsecondsSinceEpoch: 1_795_429_800_000_001),
        deduplicationKey: String? = "appointments.booked:a_91b2"
    ) -> Self {
        .init(
            id: id, userID: userID, title: title, body: body, createdAt: createdAt, readAt: readAt,
            deduplicationKey: deduplicationKey)
    }

    static let minimal = Self(id: "", userID: "", title: "", body: "", createdAt: .epoch)
}

extension Notifications.Inbox {
    static func fixture(
        notifications: [Notifications.Notification] = [
            .fixture(readAt: nil), .fixture(id: "n_0001", deduplicationKey: nil), .minimal,
        ],
        unreadCount: Int = 2, nextCursor: String? = "AQIAAAGbXLzvkAAAAAAAAAAAB2Ek1vQmE3cw"
    ) -> Self {
        .init(notifications: notifications, unreadCount: unreadCount, nextCursor: nextCursor)
    }

    static let minimal = Self(notifications: [], unreadCount: 0)
}

extension Fixtures {
    /// A full and a minimal example of every Input and Output of notifications.
    static let notifications: [Example] = [
        pair(Notifications.SendInput.fixture(), .minimal),
        pair(Notifications.InboxInput.fixture(), .minimal),
        pair(Notifications.MarkReadInput.fixture(), .minimal),
        pair(Notifications.Notification.fixture(), .minimal),
        pair(Notifications.Inbox.fixture(), .minimal),
    ].flatMap { $0 }
}
