import VerticalsContract
import VerticalsSettings

extension World.Settings {
    /// How long a history waits for clinic names.
    package static let clinicNamesTimeout = Setting.integer(
        "RECORDS_CLINIC_NAMES_TIMEOUT_MS", default: 1000, in: 1...Int.max, unit: "milliseconds",
        doc: "The longest a history waits for clinic names before answering without them.")

    /// Every setting records reads beside every daemon's: what `--check` validates.
    package static let declaration = SettingsDeclaration(
        "svc-records", summary: "What the records daemon reads beside every daemon's settings.", [clinicNamesTimeout])
}
