/// Formats and parses RFC 3339 UTC timestamps (`2026-11-23T09:30:00Z`), the JSON form
/// of a ``Timestamp``, without Foundation (civil-date arithmetic after H. Hinnant).
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
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        text += "T" + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if fraction != 0 { text += "." + pad(fraction, 6) }
        return text + "Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.ffffff](Z|±HH:MM)`; returns nil for anything else.
    public static func parse(_ text: String) -> Timestamp? {
        let chars = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= chars.count else { return nil }
            var value: Int64 = 0
            for index in range {
                let digit = chars[index]
                guard digit >= 48 && digit <= 57 else { return nil }
                value = value * 10 + Int64(digit - 48)
            }
            return value
        }
        guard chars.count >= 20, chars[4] == 45, chars[7] == 45, chars[10] == 84 || chars[10] == 116,
            chars[13] == 58, chars[16] == 58,
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction: Int64 = 0
        if index < chars.count && chars[index] == 46 {
            index += 1
            var digits = 0
            while index < chars.count, chars[index] >= 48, chars[index] <= 57 {
                if digits < 6 { fraction = fraction * 10 + Int64(chars[index] - 48) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 6) { fraction *= 10 }
        }
        var offsetSeconds: Int64 = 0
        guard index < chars.count else { return nil }
        if chars[index] == 90 || chars[index] == 122 {
            index += 1
        } else if chars[index] == 43 || chars[index] == 45 {
            guard let offsetHour = number(index + 1..<index + 3), index + 3 < chars.count, chars[index + 3] == 58,
                let offsetMinute = number(index + 4..<index + 6)
            else { return nil }
            offsetSeconds = (offsetHour * 3600 + offsetMinute * 60) * (chars[index] == 45 ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == chars.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Timestamp(microsecondsSinceEpoch: seconds * 1_000_000 + fraction)
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
