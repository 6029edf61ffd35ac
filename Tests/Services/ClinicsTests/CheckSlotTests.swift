import IOInterface
import Testing
import VerticalsContract
import VerticalsServiceKit

import VerticalsTesting
import VerticalsWire
@testable import ClinicsService

/// Dates used below (Europe/London): clocks go forward at 01:00 UTC on Sunday 29 March
/// 2026 (GMT → BST) and back at 01:00 UTC on Sunday 25 October 2026.
@Suite("Checking a slot against a clinic's hours, in its own time zone")
struct CheckSlotTests {
    /// A surgery open 09:00–13:00 and 14:00–17:00 on weekdays, and a night clinic on Sundays.
    static let surgery = ClinicDraft.fixture(
        name: "Hill Street Surgery", services: [.gp, .vaccination],
        hours: everyWeekday(540, 780) + everyWeekday(840, 1020) + [.init(weekday: .sunday, opens: 0, closes: 180)])

    private func check(
        _ start: String, _ end: String, service: Clinics.Service = .gp, draft: ClinicDraft = surgery
    ) async throws -> Clinics.SlotCheck {
        let world = try World.fixture()
        let clinic = try await world.given(draft)
        return try await CheckSlot(world: world).execute(
            clinicID: clinic.id, service: service, startsAt: .at(start), endsAt: .at(end))
    }

    @Test(arguments: [
        ("2026-11-23T09:00:00Z", "2026-11-23T09:30:00Z"), // Monday, GMT: the first minute of the day
        ("2026-11-23T12:30:00Z", "2026-11-23T13:00:00Z"), // ends exactly at the lunch break
        ("2026-11-23T16:45:00Z", "2026-11-23T17:00:00Z"), // ends exactly at closing
    ])
    func slot_insideOpeningHours_isOpen(start: String, end: String) async throws {
        let verdict = try await check(start, end)

        #expect(verdict.isOpen)
        #expect(verdict.offersService)
        #expect(verdict.reason.isEmpty)
        #expect(verdict.clinicName == "Hill Street Surgery")
    }

    @Test(arguments: [
        ("2026-11-23T16:45:00Z", "2026-11-23T17:15:00Z"), // crosses closing time
        ("2026-11-23T12:45:00Z", "2026-11-23T14:15:00Z"), // spans the lunch break
        ("2026-11-23T08:45:00Z", "2026-11-23T09:15:00Z"), // starts before opening
        ("2026-11-23T08:59:59.999999Z", "2026-11-23T09:30:00Z"), // one microsecond early
        ("2026-11-23T13:00:00Z", "2026-11-23T13:30:00Z"), // inside the lunch break
    ])
    func slot_notWhollyInsideOnePeriod_isNotOpen_andSaysWhy(start: String, end: String) async throws {
        let verdict = try await check(start, end)

        #expect(!verdict.isOpen)
        #expect(verdict.offersService)
        #expect(verdict.reason.contains("outside the opening hours on Monday"), "\(verdict.reason)")
        #expect(verdict.reason.contains("09:00–13:00, 14:00–17:00"), "\(verdict.reason)")
    }

    @Test func slot_onAClosedWeekday_isNotOpen() async throws {
        let verdict = try await check("2026-11-28T10:00:00Z", "2026-11-28T10:30:00Z") // a Saturday

        #expect(!verdict.isOpen)
        #expect(verdict.reason.contains("closed on Saturdays"), "\(verdict.reason)")
    }

    @Test func slot_crossingLocalMidnight_isNotOpen_evenAtAClinicOpenAroundTheClock() async throws {
        let allDay = ClinicDraft.fixture(
            hours: Clinics.Weekday.knownCases.map { .init(weekday: $0, opens: 0, closes: 1440) })

        let crossing = try await check("2026-11-23T23:30:00Z", "2026-11-24T00:30:00Z", draft: allDay)
        let endingAtMidnight = try await check("2026-11-23T23:30:00Z", "2026-11-24T00:00:00Z", draft: allDay)

        #expect(!crossing.isOpen)
        #expect(crossing.reason.contains("crosses midnight in Europe/London"), "\(crossing.reason)")
        #expect(endingAtMidnight.isOpen, "24:00 is the end of the day, not the next day")
    }

    @Test func slot_longerThanADay_isNotOpen() async throws {
        let allDay = ClinicDraft.fixture(
            hours: Clinics.Weekday.knownCases.map { .init(weekday: $0, opens: 0, closes: 1440) })

        let verdict = try await check("2026-11-23T00:00:00Z", "2026-11-25T00:00:00Z", draft: allDay)

        #expect(!verdict.isOpen)
    }

    @Test func slot_forAServiceTheClinicDoesNotOffer_saysSo_andStillChecksTheHours() async throws {
        let open = try await check("2026-11-23T10:00:00Z", "2026-11-23T10:30:00Z", service: .dentist)
        let closed = try await check("2026-11-28T10:00:00Z", "2026-11-28T10:30:00Z", service: .dentist)

        #expect(!open.offersService && open.isOpen)
        #expect(open.reason == "Hill Street Surgery does not offer dentist.")
        #expect(!closed.offersService && !closed.isOpen)
        #expect(closed.reason.contains("does not offer dentist") && closed.reason.contains("closed on Saturdays"))
    }

    /// The same UTC times on the Mondays either side of the spring change: 09:00 local is
    /// 09:00 UTC in winter and 08:00 UTC in summer.
    @Test(arguments: [
        ("2026-03-23T08:30:00Z", "2026-03-23T09:00:00Z", false), // 08:30 GMT: before opening
        ("2026-03-30T08:30:00Z", "2026-03-30T09:00:00Z", true), // 09:30 BST
        ("2026-03-23T16:30:00Z", "2026-03-23T17:00:00Z", true), // 16:30 GMT
        ("2026-03-30T16:30:00Z", "2026-03-30T17:00:00Z", false), // 17:30 BST: after closing
    ])
    func slot_isCheckedInLocalTime_eitherSideOfADaylightSavingChange(
        start: String, end: String, open: Bool
    ) async throws {
        #expect(try await check(start, end).isOpen == open)
    }

    /// A Sunday night clinic open 00:00–03:00 local, on the night the clocks go forward.
    /// 00:30–01:30 UTC is 00:30 GMT–02:30 BST: inside. 01:30–02:30 UTC is 02:30–03:30 BST:
    /// past closing. 00:30–02:30 UTC is 00:30 GMT–03:30 BST: past closing, though the
    /// offset at its start (GMT) alone would call it 00:30–02:30.
    @Test func slot_spanningTheSpringForwardChange_usesEachInstantsOwnOffset() async throws {
        let across = try await check("2026-03-29T00:30:00Z", "2026-03-29T01:30:00Z")
        let after = try await check("2026-03-29T01:30:00Z", "2026-03-29T02:30:00Z")
        let straddlingClosing = try await check("2026-03-29T00:30:00Z", "2026-03-29T02:30:00Z")

        #expect(across.isOpen)
        #expect(!after.isOpen)
        #expect(!straddlingClosing.isOpen)
    }

    /// On the night the clocks go back, 00:30–01:30 UTC is 01:30 BST, then (from 01:00 UTC)
    /// 01:00–01:30 GMT: every instant is inside 00:00–03:00, so the clinic is open.
    @Test func slot_spanningTheFallBackChange_isOpenWhenEveryInstantIsInside() async throws {
        let night = ClinicDraft.fixture(hours: [.init(weekday: .sunday, opens: 0, closes: 120)])

        #expect(try await check("2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z", draft: night).isOpen)
        #expect(!(try await check("2026-10-25T00:30:00Z", "2026-10-25T02:30:00Z", draft: night).isOpen))
    }

    @Test func slot_inAnotherTimeZone_isCheckedInThatZone() async throws {
        // 14:00–14:30 UTC on a Monday in November is 09:00–09:30 in New York (EST, UTC−5).
        let newYork = ClinicDraft.fixture(timeZone: "America/New_York", hours: everyWeekday(540, 1020))

        #expect(try await check("2026-11-23T14:00:00Z", "2026-11-23T14:30:00Z", draft: newYork).isOpen)
        #expect(!(try await check("2026-11-23T09:00:00Z", "2026-11-23T09:30:00Z", draft: newYork).isOpen))
    }

    @Test func slot_acrossTwoTouchingPeriods_isOpen() async throws {
        let split = ClinicDraft.fixture(hours: [
            .init(weekday: .monday, opens: 540, closes: 780), .init(weekday: .monday, opens: 780, closes: 1020),
        ])

        #expect(try await check("2026-11-23T12:30:00Z", "2026-11-23T13:30:00Z", draft: split).isOpen)
    }

    @Test func slot_atAnUnknownClinic_failsWithNotFound() async throws {
        let world = try World.fixture()

        let error = await wireError {
            _ = try await CheckSlot(world: world).execute(
                clinicID: "c_nope", service: .gp, startsAt: .at("2026-11-23T09:00:00Z"),
                endsAt: .at("2026-11-23T09:30:00Z"))
        }

        #expect(error?.code == .notFound)
    }

    @Test(arguments: ["2026-11-23T09:00:00Z", "2026-11-23T08:00:00Z"])
    func slot_thatDoesNotEndAfterItStarts_failsWithInvalidInput(end: String) async throws {
        let world = try World.fixture()
        let clinic = try await world.given(Self.surgery)

        let error = await wireError {
            _ = try await CheckSlot(world: world).execute(
                clinicID: clinic.id, service: .gp, startsAt: .at("2026-11-23T09:00:00Z"), endsAt: .at(end))
        }

        #expect(error?.code == .invalidInput)
        #expect(error?.detail("field") == "endsAt")
    }
}
