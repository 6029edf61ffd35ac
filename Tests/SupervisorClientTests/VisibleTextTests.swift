import Testing
import VerticalsSupervisorClient
import VerticalsSupervisorCommands
import VerticalsWire

/// The one escaping of a vertical's text (``VisibleText``) and the messages composed with it
/// (``TerminalText``): what a terminal would obey shows as an escape instead.
@Suite("VisibleText: a vertical's words, shown and never obeyed")
struct VisibleTextTests {
    /// What the attack on `logs` sent: a title change, a screen clear, an OSC 52 clipboard write,
    /// a carriage return over the time stamp, a right-to-left override and a line separator.
    static let hostile =
        "\u{1B}]0;owned\u{07}\u{1B}[2J\u{1B}]52;c;b3duZWQ=\u{07}\r2026-01-01 forged\u{202E}txt.exe\u{2028}x"

    @Test(arguments: [
        ("\u{1B}[2J", "\\x1b[2J"),
        ("\u{1B}]0;owned\u{07}", "\\x1b]0;owned\\x07"),
        ("a\rb\nc\td", "a\\rb\\nc\\td"),
        ("\u{00}\u{7F}", "\\x00\\x7f"),
        ("\u{9B}31m\u{85}", "\\u{9B}31m\\u{85}"),
        ("\u{202A}\u{202E}\u{2066}\u{2069}\u{200F}", "\\u{202A}\\u{202E}\\u{2066}\\u{2069}\\u{200F}"),
        ("\u{2028}\u{2029}", "\\u{2028}\\u{2029}"),
        ("plain, é, 日本, \\x1b as text", "plain, é, 日本, \\x1b as text"),
    ])
    func of_showsEveryControlAsAnEscape(input: String, shown: String) {
        #expect(VisibleText.of(input) == shown)
    }

    @Test func of_leavesNothingATerminalObeys_andShowingTwiceChangesNothing() {
        let shown = VisibleText.of(Self.hostile)
        #expect(!shown.unicodeScalars.contains { VisibleText.isEscaped($0) }, "\(shown.debugDescription)")
        #expect(shown.contains("\\x1b]52;c;b3duZWQ=\\x07"))
        #expect(VisibleText.of(shown) == shown)
    }

    @Test func ofBytes_showsBytesThatAreNotUTF8_asHex_andDecodesTheRest() {
        let bytes: [UInt8] = [0x6F, 0x6B, 0xFF, 0x1B, 0xC3, 0xA9, 0xE2, 0x80, 0x20, 0xC3]
        #expect(VisibleText.of(bytes: bytes) == "ok\\xff\\x1bé\\xe2\\x80 \\xc3")
    }

    @Test func jsonStyle_keepsADocumentValidJSON_withTheSameValue() throws {
        let document = #"{"message": "a"# + "\u{202E}\u{1B}\u{85}" + #"b"}"#
        let shown = VisibleText.of(document, style: .json)
        #expect(!shown.unicodeScalars.contains { VisibleText.isEscaped($0) })
        let parsed = try JSONValue(parsing: shown)
        guard case .object(let members) = parsed, case .string(let message)? = members.first?.value else {
            Issue.record("not an object with a string: \(shown)")
            return
        }
        #expect(message == "a\u{202E}\u{1B}\u{85}b")
    }

    @Test func terminalText_keepsTheCodesLiterals_andShowsEveryValuePutInIt() {
        let message = "line one\nline two\u{1B}[31m"
        let text: TerminalText = "error:\t\(message)\nnext"
        #expect(text.visible == "error:\tline one\\nline two\\x1b[31m\nnext")
    }

    @Test func cliErrorOfARefusal_showsTheVerticalsMessageAndDetails_onItsOwnLines() {
        let refusal = ServiceError(.notFound, Self.hostile, details: [ErrorDetail("why\u{1B}[2J", "\r\u{202E}")])
        let error = CLIError(refusal: refusal, of: "catalog.get")
        let lines = error.description.split(separator: "\n")
        #expect(lines.count == 2, "\(error.description.debugDescription)")
        #expect(!error.description.unicodeScalars.contains { $0 != "\n" && VisibleText.isEscaped($0) })
        #expect(lines.last == "  why\\x1b[2J: \\r\\u{202E}")
    }
}
