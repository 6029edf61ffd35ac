import VerticalsSupervisorClient

/// Text a service sent (`STATUS=` and the other values of a notify datagram) made safe to show
/// in `status` and to write to a log that an operator reads on a terminal: C0 and C1 control
/// characters and DEL are dropped, and an escape sequence is dropped whole (CSI `ESC [ … m`,
/// OSC `ESC ] … BEL`, DCS/SOS/PM/APC strings up to their terminator, two-character escapes),
/// so that no colour, cursor move, title change or hyperlink survives as text either. Every other
/// character that `VisibleText` shows as an escape goes too (one rule for what steers a
/// terminal): the bidirectional overrides, isolates and marks, which reorder what a terminal
/// shows, and the line and paragraph separators, which split a line.
///
/// ```swift
/// PrintableText.of("\u{1B}[2J\u{1B}]0;owned\u{07}serving")  // "serving"
/// ```
enum PrintableText {
    /// `text` without control characters, escape sequences or bidirectional controls.
    static func of(_ text: some StringProtocol) -> String {
        let scalars = Array(text.unicodeScalars)
        var kept = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let value = scalars[index].value
            switch value {
            case 0x1B: index = afterEscape(scalars, index + 1)
            case 0x9B: index = afterControlSequence(scalars, index + 1)
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F: index = afterControlString(scalars, index + 1)
            default:
                if !VisibleText.isEscaped(scalars[index]) { kept.append(scalars[index]) }
                index += 1
            }
        }
        return String(kept)
    }

    /// Past the escape sequence whose `ESC` came just before `start`.
    private static func afterEscape(_ scalars: [Unicode.Scalar], _ start: Int) -> Int {
        guard start < scalars.count else { return start }
        switch scalars[start] {
        case "[": return afterControlSequence(scalars, start + 1)
        case "]", "P", "X", "^", "_": return afterControlString(scalars, start + 1)
        default:
            // nF escapes: intermediates 0x20–0x2F, then one final character 0x30–0x7E.
            var index = start
            while index < scalars.count, (0x20...0x2F).contains(scalars[index].value) { index += 1 }
            if index < scalars.count, (0x30...0x7E).contains(scalars[index].value) { index += 1 }
            return index
        }
    }

    /// Past a CSI sequence's parameters and intermediates (0x20–0x3F) and its final character (0x40–0x7E).
    private static func afterControlSequence(_ scalars: [Unicode.Scalar], _ start: Int) -> Int {
        var index = start
        while index < scalars.count, (0x20...0x3F).contains(scalars[index].value) { index += 1 }
        if index < scalars.count, (0x40...0x7E).contains(scalars[index].value) { index += 1 }
        return index
    }

    /// Past a control string (OSC, DCS, SOS, PM, APC) and its terminator: BEL, `ESC \` or ST
    /// (U+009C). An unterminated string runs to the end of the text, all of it dropped.
    private static func afterControlString(_ scalars: [Unicode.Scalar], _ start: Int) -> Int {
        var index = start
        while index < scalars.count {
            switch scalars[index].value {
            case 0x07, 0x9C: return index + 1
            case 0x1B where index + 1 < scalars.count && scalars[index + 1] == "\\": return index + 2
            default: index += 1
            }
        }
        return index
    }
}
