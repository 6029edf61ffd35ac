import IOInterface
import Testing
import VerticalsContract
import VerticalsServiceKit

import VerticalsTesting
import VerticalsWire
@testable import ClinicsService

/// The same checks in America/New_York, whose clocks change at 02:00 local: forward at
/// 07:00 UTC on Sunday 8 March 2026 (02:00 EST becomes 03:00 EDT: 02:00–03:00 never
/// happens), and back at 06:00 UTC on Sunday 1 November 2026 (02:00 EDT becomes 01:00 EST:
/// 01:00–02:00 happens twice). Each slot's expected answer is told apart from what a fixed
/// offset (the one at its start) would give.
@Suite("Checking a slot in America/New_York across its daylight-saving changes")
struct CheckSlotNewYorkTests {
    private func check(_ start: String, _ end: String, hours: [Clinics.OpeningHours]) async throws -> Bool {
        let world = try World.fixture()
        let clinic = try await world.given(.fixture(timeZone: "America/New_York", hours: hours))
        return try await CheckSlot(world: world).execute(
            clinicID: clinic.id, service: .gp, startsAt: .at(start), endsAt: .at(end)
        ).isOpen
    }

    static let weekdays = everyWeekday(540, 1020)
    static let sundayNight = [Clinics.OpeningHours(weekday: .sunday, opens: 0, closes: 240)]

    @Test(
        "09:00 local is 14:00 UTC in winter and 13:00 UTC in summer",
        arguments: [
            ("2026-03-02T13:00:00Z", false), // Monday before spring-forward: 08:00 EST
            ("2026-03-09T13:00:00Z", true), // Monday after: 09:00 EDT
            ("2026-10-26T13:00:00Z", true), // Monday before fall-back: 09:00 EDT
            ("2026-11-02T13:00:00Z", false), // Monday after: 08:00 EST
            ("2026-11-02T14:00:00Z", true), // 09:00 EST
        ])
    func opening_followsTheLocalClock(start: String, open: Bool) async throws {
        let end = start.replacingOccurrences(of: ":00:00Z", with: ":30:00Z")
        #expect(try await check(start, end, hours: Self.weekdays) == open)
    }

    /// 06:30–07:30 UTC is 01:30 EST–03:30 EDT: one hour that reads as two on the clock, all of it
    /// before 04:00. 06:30–08:30 UTC ends at 04:30 EDT, past closing, though at the start's
    /// offset (EST) it would end at 03:30.
    @Test func slotSpanningTheSkippedHour_isCheckedAtEachInstantsOffset() async throws {
        #expect(try await check("2026-03-08T06:30:00Z", "2026-03-08T07:30:00Z", hours: Self.sundayNight))
        #expect(!(try await check("2026-03-08T06:30:00Z", "2026-03-08T08:30:00Z", hours: Self.sundayNight)))
    }

    /// Opening hours inside the hour that does not exist that Sunday: no instant is inside them.
    @Test func hoursInsideTheSkippedHour_areNeverOpenThatDay() async throws {
        let skipped = [Clinics.OpeningHours(weekday: .sunday, opens: 120, closes: 180)]

        #expect(!(try await check("2026-03-08T06:59:00Z", "2026-03-08T07:00:00Z", hours: skipped))) // 01:59 EST
        #expect(!(try await check("2026-03-08T07:00:00Z", "2026-03-08T07:01:00Z", hours: skipped))) // 03:00 EDT
        #expect(try await check("2026-03-15T06:30:00Z", "2026-03-15T07:00:00Z", hours: skipped)) // a week on: 02:30 EDT
    }

    /// Hours of 01:00–02:00 on the night that hour happens twice. 05:15–06:15 UTC is 01:15 EDT,
    /// then (from 06:00 UTC) 01:00–01:15 EST: inside all along, though at the start's offset it
    /// would end at 02:15. 06:45–07:15 UTC is 01:45–02:15 EST: past closing.
    @Test func slotInTheRepeatedHour_isOpenWhenEveryInstantIsInside() async throws {
        let repeated = [Clinics.OpeningHours(weekday: .sunday, opens: 60, closes: 120)]

        #expect(try await check("2026-11-01T05:15:00Z", "2026-11-01T06:15:00Z", hours: repeated))
        #expect(try await check("2026-11-01T05:45:00Z", "2026-11-01T06:45:00Z", hours: repeated))
        #expect(!(try await check("2026-11-01T06:45:00Z", "2026-11-01T07:15:00Z", hours: repeated)))
    }
}
