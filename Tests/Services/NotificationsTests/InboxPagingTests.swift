import IOInterface
import Testing
import VerticalsContract
import VerticalsTesting
@testable import NotificationsService

@Suite("notifications.inbox, a page at a time")
struct InboxPagingTests {
    /// Ada gets `count` notifications, some in the same instant.
    static func givenInbox(count: Int) async throws -> (Given, sent: [Notifications.Notification]) {
        let given = try Given()
        var sent: [Notifications.Notification] = []
        for index in 0..<count {
            sent.append(
                try await given.router.call(
                    Notifications.send, .fixture(title: "N \(index)", deduplicationKey: "k-\(index)")))
            if index % 3 == 0 { given.clock.advance(.seconds(1)) }
        }
        return (given, sent)
    }

    @Test func pagingThroughTheInbox_withDeliveriesBetweenPages_returnsEveryNotificationOnce_newestFirst() async throws
    {
        let (given, sent) = try await Self.givenInbox(count: 8)
        var seen: [String] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try await given.router.call(
                Notifications.inbox, .init(token: "token-ada", limit: 3, cursor: cursor))
            seen += page.notifications.map(\.id)
            cursor = page.nextCursor
            pages += 1
            // A delivery between pages lands before the caller's position: it shifts nothing.
            _ = try await given.router.call(
                Notifications.send, .fixture(title: "late", deduplicationKey: "late-\(pages)"))
        } while cursor != nil && pages < 10

        #expect(pages == 3)
        #expect(seen == sent.reversed().map(\.id))
    }

    @Test func aFullLastPage_saysSoWithoutANextCursor() async throws {
        let (given, _) = try await Self.givenInbox(count: 3)

        let page = try await given.router.call(Notifications.inbox, .init(token: "token-ada", limit: 3))

        #expect(page.notifications.count == 3)
        #expect(page.nextCursor == nil)
    }

    @Test func aTamperedCursor_failsWithInvalidInput() async throws {
        let (given, _) = try await Self.givenInbox(count: 4)
        let first = try await given.router.call(Notifications.inbox, .init(token: "token-ada", limit: 2))
        let cursor = try #require(first.nextCursor)
        var bytes = Array(cursor.utf8)
        bytes[bytes.count / 2] = bytes[bytes.count / 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")

        for bad in [String(decoding: bytes, as: UTF8.self), String(cursor.dropLast(3)), "not a cursor!", ""] {
            let error = await serviceError {
                try await given.router.call(Notifications.inbox, .init(token: "token-ada", limit: 2, cursor: bad))
            }
            #expect(error?.code == .invalidInput, "\(bad)")
            #expect(error?.detail("field") == "cursor")
        }
    }

    @Test func aCursorOfAnotherFilter_failsWithInvalidInput() async throws {
        let (given, _) = try await Self.givenInbox(count: 4)
        let first = try await given.router.call(Notifications.inbox, .init(token: "token-ada", limit: 2))

        let error = await serviceError {
            try await given.router.call(
                Notifications.inbox, .init(token: "token-ada", unreadOnly: true, limit: 2, cursor: first.nextCursor))
        }

        #expect(error?.code == .invalidInput)
    }
}
