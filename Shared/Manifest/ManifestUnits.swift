/// The textual units a manifest is written in: durations (`"100ms"`, `"1m30s"`), sizes
/// (`"10MiB"`) and signals (`"SIGTERM"`).
///
/// ```swift
/// ManifestUnits.duration("1m30s")  // .seconds(90)
/// ManifestUnits.byteCount("10MiB") // 10_485_760
/// ManifestUnits.signal("TERM")     // 15
/// ```
public enum ManifestUnits {
    /// The duration `text` spells: one or more `<number><unit>` parts, unit `ms`, `s`, `m` or
    /// `h`, the number possibly fractional (`"1.5s"`); nil when it is not one.
    public static func duration(_ text: String) -> Duration? {
        let scalars = Array(text.unicodeScalars)
        guard !scalars.isEmpty else { return nil }
        var total: Duration = .zero
        var index = 0
        while index < scalars.count {
            let numberStart = index
            while index < scalars.count, scalars[index] == "." || ("0"..."9").contains(scalars[index]) { index += 1 }
            let unitStart = index
            while index < scalars.count, ("a"..."z").contains(scalars[index]) { index += 1 }
            let number = String(String.UnicodeScalarView(scalars[numberStart..<unitStart]))
            let unit = String(String.UnicodeScalarView(scalars[unitStart..<index]))
            guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
            let milliseconds: Double
            switch unit {
            case "ms": milliseconds = 1
            case "s": milliseconds = 1_000
            case "m": milliseconds = 60_000
            case "h": milliseconds = 3_600_000
            default: return nil
            }
            // Whole microseconds: enough for any timer the supervisor sets, and exact for "100ms".
            let microseconds = (value * milliseconds * 1_000).rounded()
            guard microseconds < 1e15 else { return nil }
            total += .microseconds(Int64(microseconds))
        }
        return total
    }

    /// `duration` as a manifest writes it: `"100ms"`, `"30s"`, `"1m30s"`, `"1h"`; sub-millisecond
    /// remainders are dropped.
    public static func text(_ duration: Duration) -> String {
        var milliseconds = duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
        guard milliseconds > 0 else { return "0ms" }
        var text = ""
        for (unit, size) in [("h", Int64(3_600_000)), ("m", 60_000), ("s", 1_000), ("ms", 1)] where milliseconds >= size
        {
            text += "\(milliseconds / size)\(unit)"
            milliseconds %= size
        }
        return text
    }

    /// The byte count `text` spells: a whole number and an optional unit `B`, `KB`, `MB`, `GB`
    /// (powers of 1000) or `KiB`, `MiB`, `GiB` (powers of 1024); nil when it is not one.
    public static func byteCount(_ text: String) -> Int? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        var unit = text.dropFirst(digits.count)
        while unit.first == " " { unit.removeFirst() }
        while unit.last == " " { unit.removeLast() }
        guard let number = Int(digits) else { return nil }
        let factor: Int
        switch unit {
        case "", "B": factor = 1
        case "KB": factor = 1_000
        case "MB": factor = 1_000_000
        case "GB": factor = 1_000_000_000
        case "KiB": factor = 1 << 10
        case "MiB": factor = 1 << 20
        case "GiB": factor = 1 << 30
        default: return nil
        }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: factor)
        return overflow ? nil : bytes
    }

    /// The Linux signal number `name` names, with or without `SIG` (`"SIGTERM"`, `"term"`).
    public static func signal(_ name: String) -> Int32? {
        var key = name.uppercased()
        if key.hasPrefix("SIG") { key.removeFirst(3) }
        return signals[key]
    }

    /// The name of signal `number` (`"SIGTERM"`), or its number as text.
    public static func signalName(_ number: Int32) -> String {
        signals.first { $0.value == number }.map { "SIG\($0.key)" } ?? "\(number)"
    }

    /// The signals a service may be asked to stop with (Linux numbering, as in signal(7)).
    static let signals: [String: Int32] = [
        "HUP": 1, "INT": 2, "QUIT": 3, "ILL": 4, "TRAP": 5, "ABRT": 6, "BUS": 7, "FPE": 8, "KILL": 9, "USR1": 10,
        "SEGV": 11, "USR2": 12, "PIPE": 13, "ALRM": 14, "TERM": 15, "STKFLT": 16, "CHLD": 17, "CONT": 18,
        "STOP": 19, "TSTP": 20, "TTIN": 21, "TTOU": 22, "URG": 23, "XCPU": 24, "XFSZ": 25, "VTALRM": 26,
        "PROF": 27, "WINCH": 28, "IO": 29, "PWR": 30, "SYS": 31,
    ]
}
