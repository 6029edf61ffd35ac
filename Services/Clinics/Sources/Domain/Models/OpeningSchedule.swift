import Foundation
import IOInterface
import VerticalsContract
import VerticalsWire

/// A clinic's weekly opening hours in its own time zone, able to say whether the clinic
/// is open for the whole of a slot.
///
/// Hours are wall-clock times (what the sign on the door says), so a slot is converted to
/// local time with Foundation's `Calendar` in the clinic's `TimeZone`, not with a fixed
/// offset: 09:00 in Europe/London is 09:00 GMT in winter and 08:00 UTC in summer.
///
/// A slot is open when every instant of it falls inside one opening period. Contiguous
/// periods (08:00–12:00 and 12:00–18:00) count as one. A slot that crosses local midnight
/// is never open, even at a clinic open around the clock, since periods are per weekday.
/// A slot that spans a daylight-saving change is split at the change and each part
/// checked in its own offset, so the clocks going forward or back cannot hide a gap.
package struct OpeningSchedule: Sendable {
    /// Merged opening periods per ISO weekday (1 = Monday), as minute ranges.
    let periods: [Int: [Range<Int>]]
    /// The clinic's time zone.
    let timeZone: TimeZone
    private let calendar: Calendar

    /// Whether a slot is open, and if not, why.
    package enum Verdict: Sendable, Equatable {
        /// Open for the whole slot.
        case open
        /// Not open for all of it; the reason is a sentence for a person.
        case closed(reason: String)
    }

    /// A schedule of `hours` in `timeZone`; `nil` when Foundation does not know the zone.
    package init?(hours: [Clinics.OpeningHours], timeZone identifier: String) {
        guard let timeZone = TimeZone(identifier: identifier) else { return nil }
        var byDay: [Int: [Range<Int>]] = [:]
        for period in hours {
            // Stored hours were checked when the clinic was created; anything else is left out.
            guard let day = period.weekday.isoNumber, period.opens >= 0, period.closes <= 1440,
                period.opens < period.closes
            else { continue }
            byDay[day, default: []].append(period.opens..<period.closes)
        }
        periods = byDay.mapValues(Self.merge)
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// Whether the clinic is open from `start` up to `end` (exclusive); throws
    /// ``ClinicError/invalid(field:reason:)`` unless `end` is after `start` and both are instants
    /// the wire carries (years 1 to 9999).
    package func check(from start: Timestamp, to end: Timestamp) throws(ClinicError) -> Verdict {
        try Self.requireSlot(from: start, to: end)
        // Any two instants' distance fits a Duration; after this the slot is at most a day long,
        // so the microsecond arithmetic below stays small.
        if start.duration(to: end) > .microseconds(Self.microsPerDay) {
            return .closed(reason: "The slot is longer than a day; book a slot within one day's opening hours.")
        }
        // Split at daylight-saving changes: within a piece the UTC offset is constant, so local
        // wall time runs in step with the instant and the piece maps to one wall-clock interval.
        var pieceStart = start
        while pieceStart < end {
            let transition = timeZone.nextDaylightSavingTimeTransition(after: Self.date(pieceStart))
                .flatMap(Self.timestamp)
            // A transition at or before the piece's start (rounding) would loop forever: end the piece at `end`.
            let pieceEnd = transition.flatMap { $0 > pieceStart ? min($0, end) : nil } ?? end
            if case .closed(let reason) = checkPiece(from: pieceStart, to: pieceEnd, slot: (start, end)) {
                return .closed(reason: reason)
            }
            pieceStart = pieceEnd
        }
        return .open
    }

    /// Checks part of a slot during which the UTC offset does not change.
    private func checkPiece(from start: Timestamp, to end: Timestamp, slot: (Timestamp, Timestamp)) -> Verdict {
        let local = localTime(of: start)
        let wallEnd = local.microsOfDay + (end.microsecondsSinceEpoch - start.microsecondsSinceEpoch)
        let zone = timeZone.identifier
        guard wallEnd <= Self.microsPerDay else {
            return .closed(
                reason: "The slot \(describe(slot)) crosses midnight in \(zone); "
                    + "book a slot that starts and ends on the same day.")
        }
        let day = Clinics.Weekday(isoNumber: local.isoWeekday) ?? .monday
        guard let open = periods[local.isoWeekday], !open.isEmpty else {
            return .closed(reason: "The clinic is closed on \(day.displayName)s (\(zone)).")
        }
        let fits = open.contains { range in
            Int64(range.lowerBound) * Self.microsPerMinute <= local.microsOfDay
                && wallEnd <= Int64(range.upperBound) * Self.microsPerMinute
        }
        if fits { return .open }
        let hours = open.map { "\(clockTime(minutes: $0.lowerBound))–\(clockTime(minutes: $0.upperBound))" }
        return .closed(
            reason: "The slot \(describe(slot)) is outside the opening hours on \(day.displayName): "
                + hours.joined(separator: ", ") + ".")
    }

    /// Local `HH:MM–HH:MM (zone)` of a slot, for messages.
    private func describe(_ slot: (Timestamp, Timestamp)) -> String {
        let start = localTime(of: slot.0)
        let end = localTime(of: slot.1)
        let startDay = Clinics.Weekday(isoNumber: start.isoWeekday)?.displayName ?? ""
        var text = "\(startDay) \(clockTime(minutes: Int(start.microsOfDay / Self.microsPerMinute)))–"
        if end.isoWeekday != start.isoWeekday {
            text += (Clinics.Weekday(isoNumber: end.isoWeekday)?.displayName ?? "") + " "
        }
        return text + "\(clockTime(minutes: Int(end.microsOfDay / Self.microsPerMinute))) (\(timeZone.identifier))"
    }

    /// The local weekday and time of day of an instant, in microseconds so that no rounding
    /// of a `Date`'s floating-point seconds can move 09:00:00 to 08:59:59.999.
    private func localTime(of instant: Timestamp) -> (isoWeekday: Int, microsOfDay: Int64) {
        let micros = instant.microsecondsSinceEpoch
        // Floor division, written so that no step leaves Int64 (even at Int64.min).
        var seconds = micros / 1_000_000
        var fraction = micros % 1_000_000
        if fraction < 0 {
            seconds -= 1
            fraction += 1_000_000
        }
        let parts = calendar.dateComponents(
            [.weekday, .hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(seconds)))
        let secondOfDay = Int64((parts.hour ?? 0) * 3600 + (parts.minute ?? 0) * 60 + (parts.second ?? 0))
        // Foundation numbers Sunday 1 ... Saturday 7; ISO numbers Monday 1 ... Sunday 7.
        let isoWeekday = ((parts.weekday ?? 2) + 5) % 7 + 1
        return (isoWeekday, secondOfDay * 1_000_000 + fraction)
    }

    /// Sorts ranges and joins the ones that touch or overlap.
    private static func merge(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var merged: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    private static let microsPerMinute: Int64 = 60_000_000
    private static let microsPerDay: Int64 = 86_400_000_000

    private static func date(_ timestamp: Timestamp) -> Date {
        Date(timeIntervalSince1970: TimeInterval(timestamp.microsecondsSinceEpoch) / 1_000_000)
    }

    /// The instant of `date`, or nil when it is not a whole number of microseconds `Int64` holds
    /// (NaN, infinite or too far): `Int64(_:)` of such a double traps.
    private static func timestamp(_ date: Date) -> Timestamp? {
        Int64(exactly: (date.timeIntervalSince1970 * 1_000_000).rounded()).map(Timestamp.init(microsecondsSinceEpoch:))
    }

    /// Throws unless `start..<end` is a slot: both instants in the wire's range, `end` after `start`.
    static func requireSlot(from start: Timestamp, to end: Timestamp) throws(ClinicError) {
        guard start.isInWireRange else {
            throw .invalid(field: "startsAt", reason: "must be in the years 1 to 9999 (got \(start))")
        }
        guard end.isInWireRange else {
            throw .invalid(field: "endsAt", reason: "must be in the years 1 to 9999 (got \(end))")
        }
        guard start < end else { throw .invalid(field: "endsAt", reason: "must be after startsAt (\(start))") }
    }
}
