import IOInterface
import Testing
import VerticalsContract
import VerticalsTesting
import VerticalsWire
@testable import NotificationsService

@Suite("notifications.inbox and notifications.markRead")
struct InboxTests {
    /// Ada gets three notifications a minute apart, Bob one.
    static func givenMail() async throws -> (Given, ada: [Notifications.Notification], bob: Notifications.Notification)
    {
        let given = try Given()
        var ada: [Notifications.Notification] = []
        for index in 1...3 {
            ada.append(
                try await given.router.call(
                    Notifications.send, .fixture(title: "Ada \(index)", deduplicationKey: "k-ada-\(index)")))
            given.clock.advance(.seconds(60))
        }
        let bob = try await given.router.call(Notifications.send, .fixture(userID: "u-bob", deduplicationKey: "k-bob"))
        return (given, ada, bob)
    }

    @Test func inbox_showsOnlyTheCallersNotifications_newestFirst() async throws {
        let (given, ada, bob) = try await Self.givenMail()

        let adas = try await given.router.call(Notifications.inbox, .init(token: "token-ada"))
        let bobs = try await given.router.call(Notifications.inbox, .init(token: "token-bob"))

        #expect(adas.notifications == ada.reversed())
        #expect(adas.unreadCount == 3)
        #expect(bobs.notifications == [bob])
        #expect(bobs.unreadCount == 1)
    }

    @Test func inbox_ordersNotificationsOfTheSameInstantNewestFirst() async throws {
        let given = try Given()
        let first = try await given.router.call(Notifications.send, .fixture(deduplicationKey: "a"))
        let second = try await given.router.call(Notifications.send, .fixture(deduplicationKey: "b"))

        let inbox = try await given.router.call(Notifications.inbox, .init(token: "token-ada"))

        #expect(inbox.notifications.map(\.id) == [second.id, first.id])
    }

    @Test func inbox_unreadOnlyAndLimit_narrowTheListButNotTheUnreadCount() async throws {
        let (given, ada, _) = try await Self.givenMail()
        _ = try await given.router.call(Notifications.markRead, .init(token: "token-ada", id: ada[2].id))

        let unread = try await given.router.call(Notifications.inbox, .init(token: "token-ada", unreadOnly: true))
        let newest = try await given.router.call(Notifications.inbox, .init(token: "token-ada", limit: 1))

        #expect(unread.notifications.map(\.id) == [ada[1].id, ada[0].id])
        #expect(unread.unreadCount == 2)
        #expect(newest.notifications.map(\.id) == [ada[2].id])
        #expect(newest.unreadCount == 2)
    }

    @Test("inbox refuses a limit outside 1...200", arguments: [0, -1, 201])
    func inbox_givenALimitOutOfRange_failsWithInvalidInput(limit: Int) async throws {
        let given = try Given()

        let error = await serviceError {
            try await given.router.call(Notifications.inbox, .init(token: "token-ada", limit: limit))
        }

        #expect(error?.code == .invalidInput)
        #expect(error?.detail("field") == "limit")
    }

    @Test func inbox_givenABadToken_isUnauthenticated() async throws {
        let given = try Given()

        let error = await serviceError { try await given.router.call(Notifications.inbox, .init(token: "stolen")) }

        #expect(error?.code == .unauthenticated)
    }

    @Test func inbox_whenIdentityIsDown_isUnavailable() async throws {
        let given = try Given()
        given.identity.failure.withLock { $0 = .unavailable }

        let error = await serviceError { try await given.router.call(Notifications.inbox, .init(token: "token-ada")) }

        #expect(error?.code == .unavailable)
    }

    @Test func markRead_ofTheCallersNotification_marksItOnce() async throws {
        let (given, ada, _) = try await Self.givenMail()
        let readAt = given.clock.now

        let read = try await given.router.call(Notifications.markRead, .init(token: "token-ada", id: ada[0].id))
        given.clock.advance(.seconds(3600))
        let again = try await given.router.call(Notifications.markRead, .init(token: "token-ada", id: ada[0].id))

        #expect(read.readAt == readAt)
        #expect(read.id == ada[0].id && read.title == ada[0].title)
        #expect(again == read, "idempotent: the first read time stays")
        let inbox = try await given.router.call(Notifications.inbox, .init(token: "token-ada"))
        #expect(inbox.unreadCount == 2)
    }

    @Test func markRead_ofAnotherUsersNotification_isPermissionDeniedAndChangesNothing() async throws {
        let (given, _, bob) = try await Self.givenMail()

        let error = await serviceError {
            try await given.router.call(Notifications.markRead, .init(token: "token-ada", id: bob.id))
        }

        #expect(error?.code == .permissionDenied)
        let bobs = try await given.router.call(Notifications.inbox, .init(token: "token-bob"))
        #expect(bobs.unreadCount == 1)
    }

    @Test func markRead_ofAnUnknownID_isNotFound() async throws {
        let given = try Given()

        let error = await serviceError {
            try await given.router.call(Notifications.markRead, .init(token: "token-ada", id: "n-missing"))
        }

        #expect(error?.code == .notFound)
        #expect(error?.detail("field") == "id")
    }

    @Test func markRead_givenABadToken_isUnauthenticated() async throws {
        let (given, ada, _) = try await Self.givenMail()

        let error = await serviceError {
            try await given.router.call(Notifications.markRead, .init(token: "stolen", id: ada[0].id))
        }

        #expect(error?.code == .unauthenticated)
    }
}
