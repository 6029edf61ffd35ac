import VerticalsContract
import VerticalsSettings

extension World.Settings {
    /// Whether a fresh store starts with the seed directory.
    package static let seed = Setting.choice(
        "CLINICS_SEED", among: ["on", "off", "1", "0", "true", "false", "yes", "no"], default: "on", ignoringCase: true,
        doc: "off, 0, false or no: a fresh store starts empty instead of with the seed directory.")

    /// Every setting clinics reads beside every daemon's: what `--check` validates.
    package static let declaration = SettingsDeclaration(
        "svc-clinics", summary: "What the clinics daemon reads beside every daemon's settings.", [seed])
}
