import VerticalsContract
import VerticalsSettings

extension World.Settings {
    /// Bookings one clinic takes at once for one service.
    package static let slotCapacity = Setting.integer(
        "APPOINTMENTS_SLOT_CAPACITY", default: 2, in: 1...Int.max, unit: "bookings",
        doc: "Bookings one clinic takes at once for one service (its rooms or chairs).")

    /// The longest delay between two notification retries.
    package static let retryMaxMilliseconds = Setting.integer(
        "APPOINTMENTS_RETRY_MAX_MS", default: 30_000, in: 1...Int.max, unit: "milliseconds",
        doc: "The longest delay between two retries of an undelivered notification.")

    /// Every setting appointments reads beside every daemon's: what `--check` validates.
    package static let declaration = SettingsDeclaration(
        "svc-appointments", summary: "What the appointments daemon reads beside every daemon's settings.",
        [slotCapacity, retryMaxMilliseconds])
}
