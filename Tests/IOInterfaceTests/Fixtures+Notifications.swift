import IOInterface
import VerticalsContract
import VerticalsWire

// MARK: Notifications

extension Notifications.SendInput {
    static let full = Self(
        userID: "u_7f3a", title: "Appointment booked",
        body: "Your GP appointment at Hill Street Surgery is on 23 Nov at 09:30.",
        deduplicationKey: "appointments.booked:a_91b2")
    static let minimal = Self(userID: "", title: "", body: "")
}

extension Notifications.InboxInput {
    static let full = Self(
        token: Fixtures.token, unreadOnly: true, limit: 10, cursor: "AQIAAAGbXLzvkAAAAAAAAAAAB2Ek1vQmE3cw")
    static let minimal = Self(token: "")
}

extension Notifications.MarkReadInput {
    static let full = Self(token: Fixtures.token, id: "n_5c1d")
    static let minimal = Self(token: "", id: "")
}

extension Notifications.Notification {
    static let full = Self(
        id: "n_5c1d", userID: "u_7f3a", title: "Appointment booked",
        body: "Your GP appointment at Hill Street Surgery is on 23 Nov at 09:30. Ünïcode ✓",
        createdAt: Timestamp(microsecondsSinceEpoch: 1_795_426_200_123_456),
        readAt: Timestamp(microsecondsSinceEpoch: 1_795_429_800_000_001), deduplicationKey: "appointments.booked:a_91b2"
    )
    static let minimal = Self(id: "", userID: "", title: "", body: "", createdAt: .epoch)
}

extension Notifications.Inbox {
    static let full = Self(
        notifications: [
            Notifications.Notification.full.with { $0.readAt = nil },
            Notifications.Notification.full.with {
                $0.id = "n_0001"; $0.deduplicationKey = nil
            }, .minimal,
        ],
        unreadCount: 2, nextCursor: "AQIAAAGbXLzvkAAAAAAAAAAAB2Ek1vQmE3cw")
    static let minimal = Self(notifications: [], unreadCount: 0)
}
