/// Text a vertical wrote, made safe to show to a person: every character that could steer a
/// terminal or hide what it shows becomes a visible escape, on a terminal and in a pipe alike.
///
/// - C0 controls, DEL and the C1 controls: `\n`, `\r`, `\t` by name, the others as `\x1b`,
///   `\x7f`, `\u{9B}`; an escape sequence so shows whole (`\x1b[2J`, `\x1b]0;title\x07`).
/// - Bidirectional overrides, isolates and marks (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F,
///   U+061C), and the line and paragraph separators (U+2028, U+2029): `\u{202E}`.
/// - Bytes that are not UTF-8 (``of(bytes:)``): `\xff`.
///
/// Everything else, backslashes included, passes as it is, so showing text twice changes nothing
/// the second time. This is the one escaping every printer of a vertical's text uses
/// (``TerminalText``); `--raw` is the only way past it.
///
/// ```swift
/// VisibleText.of("\u{1B}]52;c;aGk=\u{07}ok")  // "\\x1b]52;c;aGk=\\x07ok"
/// ```
package enum VisibleText {
    /// How an escape is written.
    package enum Style: Sendable {
        /// Swift-like, for people: `\x1b`, `\u{202E}`.
        case text
        /// JSON's own `\u001b`, `\u202e`: valid inside a JSON string, so a JSON document stays one.
        case json
    }

    /// `text` with every control, bidirectional control and line separator shown as an escape.
    package static func of(_ text: some StringProtocol, style: Style = .text) -> String {
        var shown = ""
        shown.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars { append(scalar, to: &shown, style: style) }
        return shown
    }

    /// `bytes` read as UTF-8, shown as ``of(_:style:)`` shows text; a byte that is not part of a
    /// valid UTF-8 sequence shows as `\xNN`.
    package static func of(bytes: some Collection<UInt8>, style: Style = .text) -> String {
        let bytes = Array(bytes)
        var shown = ""
        shown.reserveCapacity(bytes.count)
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                append(Unicode.UTF8.decode(encoded), to: &shown, style: style)
                offset += encoded.count
            case .error(let length):
                for byte in bytes[offset..<offset + length] { shown += hexByte(byte, style: style) }
                offset += length
            case .emptyInput:
                return shown
            }
        }
    }

    /// True when `scalar` shows as an escape.
    package static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private static func append(_ scalar: Unicode.Scalar, to shown: inout String, style: Style) {
        guard isEscaped(scalar) else {
            shown.unicodeScalars.append(scalar)
            return
        }
        switch scalar {
        case "\n": shown += "\\n"
        case "\r": shown += "\\r"
        case "\t": shown += "\\t"
        default:
            let value = scalar.value
            if value < 0x80, style == .text {
                shown += hexByte(UInt8(value), style: style)
            } else {
                let hex = String(value, radix: 16)
                switch style {
                case .text: shown += "\\u{" + hex.uppercased() + "}"
                case .json: shown += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                }
            }
        }
    }

    /// A byte as `\x1b` (text) or, in JSON, which has no byte escape, as the character U+00NN.
    private static func hexByte(_ byte: UInt8, style: Style) -> String {
        let hex = String(byte, radix: 16)
        let digits = byte < 0x10 ? "0" + hex : hex
        return style == .text ? "\\x" + digits : "\\u00" + digits
    }
}
