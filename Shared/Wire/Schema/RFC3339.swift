/// Formats and parses RFC 3339 UTC timestamps (`2026-11-23T09:30:00Z`), the JSON form
/// of a ``Timestamp``, without Foundation (civil-date arithmetic after H. Hinnant).
///
/// Every `Timestamp` formats, and parses back to itself: years outside 0000...9999
/// (which RFC 3339 cannot express) use ISO 8601's expanded form, a sign and six
/// digits, as ECMAScript does (`-000001-12-31T00:00:00Z`, `+010000-01-01T00:00:00Z`).
public enum RFC3339 {
    /// Formats `timestamp` in UTC; microseconds appear only when non-zero.
    public static func format(_ timestamp: Timestamp) -> String {
        let micros = timestamp.microsecondsSinceEpoch
        var seconds = micros / 1_000_000
        var fraction = micros % 1_000_000
        if fraction < 0 {
            fraction += 1_000_000
            seconds -= 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = civil(fromDays: days)
        var text = (0...9999).contains(year) ? pad(year, 4) : (year < 0 ? "-" : "+") + pad(abs(year), 6)
        text += "-" + pad(month, 2) + "-" + pad(day, 2)
        text += "T" + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if fraction != 0 { text += "." + pad(fraction, 6) }
        return text + "Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, or the same with an expanded
    /// `±YYYYYY` year; returns nil for anything else, and for instants a `Timestamp`
    /// cannot hold. Digits past microseconds are truncated.
    public static func parse(_ text: String) -> Timestamp? {
        var cursor = Cursor(Array(text.utf8))
        guard let year = cursor.year(), cursor.take(UInt8(ascii: "-")),
            let month = cursor.number(2), cursor.take(UInt8(ascii: "-")),
            let day = cursor.number(2), cursor.take(UInt8(ascii: "T")) || cursor.take(UInt8(ascii: "t")),
            let hour = cursor.number(2), cursor.take(UInt8(ascii: ":")),
            let minute = cursor.number(2), cursor.take(UInt8(ascii: ":")),
            let second = cursor.number(2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction: Int64 = 0
        if cursor.take(UInt8(ascii: ".")) {
            var digits = 0
            while let digit = cursor.digit() {
                if digits < 6 { fraction = fraction * 10 + digit }
                digits += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 6) { fraction *= 10 }
        }
        var offsetSeconds: Int64 = 0
        if cursor.take(UInt8(ascii: "Z")) || cursor.take(UInt8(ascii: "z")) {
            offsetSeconds = 0
        } else if let sign = cursor.sign() {
            guard let offsetHour = cursor.number(2), cursor.take(UInt8(ascii: ":")),
                let offsetMinute = cursor.number(2), offsetHour < 24, offsetMinute < 60
            else { return nil }
            offsetSeconds = sign * (offsetHour * 3600 + offsetMinute * 60)
        } else {
            return nil
        }
        guard cursor.isAtEnd else { return nil }
        // Six-digit years reach past what Int64 microseconds hold: check every step.
        let days = daysFromCivil(year: year, month: month, day: day)
        let (daySeconds, o1) = days.multipliedReportingOverflow(by: 86_400)
        let (seconds, o2) = daySeconds.addingReportingOverflow(hour * 3600 + minute * 60 + second - offsetSeconds)
        // Before the epoch, count from the next whole second back, so that the earliest
        // instants (near Int64.min microseconds) do not overflow on the way.
        let borrow: Int64 = seconds < 0 && fraction > 0 ? 1 : 0
        let (micros, o3) = (seconds + borrow).multipliedReportingOverflow(by: 1_000_000)
        let (total, o4) = micros.addingReportingOverflow(fraction - borrow * 1_000_000)
        guard !(o1 || o2 || o3 || o4) else { return nil }
        return Timestamp(microsecondsSinceEpoch: total)
    }

    /// Reads the fixed-width fields of an RFC 3339 string.
    private struct Cursor {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { index == bytes.count }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func digit() -> Int64? {
            guard index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 else { return nil }
            defer { index += 1 }
            return Int64(bytes[index] - 48)
        }

        mutating func number(_ width: Int) -> Int64? {
            var value: Int64 = 0
            for _ in 0..<width {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        mutating func sign() -> Int64? {
            if take(UInt8(ascii: "+")) { return 1 }
            if take(UInt8(ascii: "-")) { return -1 }
            return nil
        }

        /// `YYYY`, or `±YYYYYY` (where `-000000` is not allowed).
        mutating func year() -> Int64? {
            guard let sign = sign() else { return number(4) }
            guard let magnitude = number(6), !(sign < 0 && magnitude == 0) else { return nil }
            return sign * magnitude
        }
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
