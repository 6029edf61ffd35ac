import Synchronization
import VerticalsWire

/// Hands out distinct 5-minute slots, one per booking, starting two days from now (UTC), so
/// no two bookings of a run overlap: neither the patient's own bookings nor the clinic's capacity refuse one.
final class BookingSlots: Sendable {
    private let next = Atomic<Int>(0)
    private let firstDay: Int64
    /// Slots per day: 00:00 to 23:50 starts, so none ends past midnight.
    static let perDay = 287
    static let minutes = 5

    init(now: Timestamp) {
        firstDay = now.microsecondsSinceEpoch / 86_400_000_000 + 2
    }

    /// The next slot's start and its number (unique within the run).
    func take() -> (startsAt: Timestamp, number: Int) {
        let number = next.wrappingAdd(1, ordering: .relaxed).oldValue
        let day = firstDay + Int64(number / Self.perDay)
        let minute = Int64(number % Self.perDay * Self.minutes)
        return (Timestamp(microsecondsSinceEpoch: (day * 86_400 + minute * 60) * 1_000_000), number)
    }
}
