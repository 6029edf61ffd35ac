/// Reads and writes the numbers of the JSON form: integers exactly, doubles by their
/// shortest round-tripping text, non-finite doubles as the strings `NaN`, `Infinity`
/// and `-Infinity` (as Protocol Buffers' JSON mapping does).
enum JSONNumbers {
    /// What an integer field's number text holds.
    enum Integer {
        /// The text has a fraction or an exponent.
        case notInteger
        /// The magnitude does not fit 64 bits.
        case tooLarge
        /// The sign and magnitude.
        case value(negative: Bool, magnitude: UInt64)
    }

    /// Reads number text (already checked against the JSON grammar) as an integer.
    static func integer(_ text: String) -> Integer {
        var negative = false
        var magnitude: UInt64 = 0
        var tooLarge = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard !tooLarge else { continue }
                let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
                if o1 || o2 { tooLarge = true } else { magnitude = sum }
            default: return .notInteger
            }
        }
        return tooLarge ? .tooLarge : .value(negative: negative, magnitude: magnitude)
    }

    /// The `Int64` a sign and magnitude make, if it fits.
    static func int64(negative: Bool, magnitude: UInt64) -> Int64? {
        if negative {
            if magnitude == 1 << 63 { return Int64.min }
            return magnitude < 1 << 63 ? -Int64(magnitude) : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// A double's JSON form.
    static func json(_ value: Double) -> JSONValue {
        if value.isNaN { return .string("NaN") }
        if value.isInfinite { return .string(value < 0 ? "-Infinity" : "Infinity") }
        return .number(value.description)
    }

    /// The double a JSON value holds, nil when it holds none; infinite results from
    /// finite text (`1e400`) are reported by the caller as out of range.
    static func double(_ json: JSONValue) -> Double? {
        switch json {
        case .number(let text): Double(text)
        case .string("NaN"): .nan
        case .string("Infinity"): .infinity
        case .string("-Infinity"): -.infinity
        default: nil
        }
    }
}
