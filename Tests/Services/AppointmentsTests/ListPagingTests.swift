import IOInterface
import Testing
import VerticalsContract
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire
@testable import AppointmentsService

@Suite("appointments.list, a page at a time")
struct ListPagingTests {
    static let window = (from: testNow, to: testNow.adding(.seconds(86_400)))

    /// Books ada's appointment starting `hours` after `testNow` (`minutes` later within that hour).
    static func book(_ world: World, hours: Int, minutes: Int = 0, id: String) async throws -> Booking {
        try await BookAppointment(world: world).execute(
            .fixture(startsAt: testNow.adding(.seconds(Int64(hours * 3_600 + minutes * 60))), requestID: id))
    }

    @Test func pagingThroughTheList_withBookingsBetweenPages_returnsEveryBookingOnce_earliestFirst() async throws {
        let world = try World.test(caller: .suite())
        var booked: [Booking] = []
        for hour in 1...8 { booked.append(try await Self.book(world, hours: 2 * hour, id: "r\(hour)")) }

        var seen: [String] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try await ListAppointments(world: world).execute(
                .init(token: "token-ada", from: Self.window.from, to: Self.window.to, limit: 3, cursor: cursor))
            seen += page.bookings.map(\.id)
            cursor = page.nextCursor
            pages += 1
            // One booking before the position (never seen in this pass) and one after it (seen once, in order).
            booked.append(try await Self.book(world, hours: 0, minutes: pages * 25, id: "early\(pages)"))
            if pages == 1 { booked.append(try await Self.book(world, hours: 20, id: "late")) }
        } while cursor != nil && pages < 10

        let expected = booked.filter { $0.startsAt >= testNow.adding(.seconds(7_200)) }
            .sorted { ($0.startsAt, $0.id) < ($1.startsAt, $1.id) }.map(\.id)
        #expect(seen == expected)
        #expect(Set(seen).count == seen.count)
        #expect(pages == 3)
    }

    @Test func aTamperedCursor_orOneOfAnotherWindow_failsWithInvalidInput() async throws {
        let world = try World.test(caller: .suite())
        for hour in 1...3 { _ = try await Self.book(world, hours: hour, id: "r\(hour)") }
        let first = try await ListAppointments(world: world).execute(
            .init(token: "token-ada", from: Self.window.from, to: Self.window.to, limit: 2))
        let cursor = try #require(first.nextCursor)

        for (bad, to) in [(String(cursor.dropFirst()), Self.window.to), (cursor, testNow.adding(.seconds(90_000)))] {
            let error = await #expect(throws: BookingError.self) {
                _ = try await ListAppointments(world: world).execute(
                    .init(token: "token-ada", from: Self.window.from, to: to, limit: 2, cursor: bad))
            }
            #expect(error?.serviceError.code == .invalidInput)
            #expect(error?.serviceError.detail("field") == "cursor")
        }
    }

    @Test("list refuses a page size outside 1...200", arguments: [0, 201])
    func aPageSizeOutOfRange_failsWithInvalidInput(limit: Int) async throws {
        let world = try World.test(caller: .suite())
        await #expect(throws: BookingError.invalid(field: "limit", reason: "must be 1...200 (got \(limit))")) {
            _ = try await ListAppointments(world: world).execute(
                .init(token: "token-ada", from: Self.window.from, to: Self.window.to, limit: limit))
        }
    }
}
