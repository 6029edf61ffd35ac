import IOInterface
import VerticalsContract

extension Clinics.Weekday {
    /// The ISO 8601 day number, Monday 1 ... Sunday 7; `nil` for a day this build does not know.
    var isoNumber: Int? {
        switch self {
        case .monday: 1
        case .tuesday: 2
        case .wednesday: 3
        case .thursday: 4
        case .friday: 5
        case .saturday: 6
        case .sunday: 7
        case .unknown: nil
        }
    }

    /// The day with ISO 8601 number `number` (Monday 1 ... Sunday 7).
    init?(isoNumber number: Int) {
        guard (1...7).contains(number) else { return nil }
        self = Self.knownCases[number - 1]
    }

    /// The day's English name, capitalised, for messages: `Monday`.
    var displayName: String {
        let name = wireName
        return name.prefix(1).uppercased() + name.dropFirst()
    }
}

/// Formats minutes after midnight as `HH:MM` (1440 is `24:00`).
func clockTime(minutes: Int) -> String {
    let hours = minutes / 60
    let rest = minutes % 60
    return (hours < 10 ? "0" : "") + String(hours) + ":" + (rest < 10 ? "0" : "") + String(rest)
}
