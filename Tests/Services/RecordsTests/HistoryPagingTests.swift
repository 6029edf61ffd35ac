import IOInterface
import Testing
import VerticalsContract
import VerticalsServiceKit

import VerticalsTesting
@testable import RecordsService

@Suite("records.history, a page at a time")
struct HistoryPagingTests {
    @Test func pagingThroughHistory_withEntriesAddedBetweenPages_returnsEveryEntryOnce_newestFirst() async throws {
        let world = try World.fixture()
        var added: [Records.Entry] = []
        for index in 0..<7 {
            // Some in the same microsecond: the later insert comes first.
            added.append(
                Records.Entry(
                    id: "r_\(index)", userID: "u_ada", kind: .note, text: "\(index)",
                    createdAt: .init(secondsSinceEpoch: Int64(100 + index / 2))))
            try await world.entries.insert(added[index])
        }

        var seen: [String] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try await ReadHistory(world: world).execute(.init(token: Tokens.ada, limit: 3, cursor: cursor))
            seen += page.entries.map(\.id)
            cursor = page.nextCursor
            pages += 1
            _ = try await AddEntry(world: world).execute(.fixture(token: Tokens.ada, text: "between \(pages)"))
        } while cursor != nil && pages < 10

        #expect(seen == added.reversed().map(\.id))
        #expect(pages == 3)
    }

    @Test func aCursorOfAnotherKind_orOutOfRangeLimit_failsWithInvalidInput() async throws {
        let world = try World.fixture()
        for _ in 0..<3 { _ = try await AddEntry(world: world).execute(.fixture(token: Tokens.ada, kind: .note)) }
        let first = try await ReadHistory(world: world).execute(.init(token: Tokens.ada, kind: .note, limit: 2))
        let cursor = try #require(first.nextCursor)

        let otherKind = await wireError {
            _ = try await ReadHistory(world: world).execute(.init(token: Tokens.ada, kind: .allergy, cursor: cursor))
        }
        let otherUser = await wireError {
            _ = try await ReadHistory(world: world).execute(.init(token: Tokens.bob, kind: .note, cursor: cursor))
        }
        let tooMany = await wireError {
            _ = try await ReadHistory(world: world).execute(.init(token: Tokens.ada, limit: 201))
        }

        #expect(otherKind?.detail("field") == "cursor")
        #expect(otherUser?.code == .invalidInput)
        #expect(tooMany?.detail("field") == "limit")
    }
}
