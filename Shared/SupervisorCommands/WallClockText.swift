import Glibc
import VerticalsContract
import VerticalsWire

/// Wall-clock instants as a person at this terminal reads them.
enum WallClockText {
    /// `timestamp` in the local time zone: `HH:MM:SS` today, `YYYY-MM-DD HH:MM:SS` otherwise.
    static func localTime(_ timestamp: Timestamp) -> String {
        var seconds = time_t(timestamp.microsecondsSinceEpoch / 1_000_000)
        var now = time(nil)
        var parts = tm()
        var today = tm()
        localtime_r(&seconds, &parts)
        localtime_r(&now, &today)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let clock = "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
        guard parts.tm_year != today.tm_year || parts.tm_yday != today.tm_yday else { return clock }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(clock)"
    }
}
