import Testing
import VerticalsContract
import VerticalsSupervisorClient
import VerticalsSupervisorCommands
import VerticalsTesting

/// True when `text` holds nothing a terminal would obey: no control character but the line
/// ends, no bidirectional control or line separator.
func isInert(_ text: String) -> Bool {
    !text.unicodeScalars.contains { $0 != "\n" && VisibleText.isEscaped($0) }
}

extension EngineProcessTests {
    /// A vertical that writes to its log what would take over the operator's terminal: `logs`
    /// shows it as escapes, in a pipe as on a terminal; `--raw` gives the bytes.
    @Suite("What a vertical writes reaches the operator shown, not obeyed", .blocking)
    struct HostileOutput {
        /// A title change, a screen clear, an OSC 52 clipboard write, a carriage return over the
        /// time stamp, a right-to-left override and a byte that is not UTF-8; then a colour on stderr.
        static let scribbler =
            #"printf '\033]0;owned\007\033[2J\033]52;c;b3duZWQ=\007\r2026-01-01T00:00:00Z forged \342\200\256gpj.exe \377\n'; "#
            + #"printf 'red \033[31m\n' >&2; exec sleep 30"#
        static let shown =
            #"\x1b]0;owned\x07\x1b[2J\x1b]52;c;b3duZWQ=\x07\r2026-01-01T00:00:00Z forged \u{202E}gpj.exe \xff"#

        @Test func logs_ofAVerticalWritingEscapeSequences_showsEachAsAnEscape_andRawPassesTheBytes() async throws {
            let harness = try EngineHarness([.script("scribbler", Self.scribbler)])
            try await harness.start()
            #expect(eventually { (readFile(harness.run.log(for: "scribbler")) ?? "").contains("red") })
            let run = harness.directory.path

            let one = try runCommand("svc-supervisor", ["logs", "scribbler", "--run-dir", run], in: harness.directory)
            #expect(one.status == 0, "\(one.standardError)")
            #expect(one.standardOutput.contains(Self.shown), "\(one.standardOutput.debugDescription)")
            #expect(one.standardOutput.contains(#"stderr red \x1b[31m"#))
            #expect(isInert(one.standardOutput), "\(one.standardOutput.debugDescription)")

            let all = try runCommand("svc-supervisor", ["logs", "--all", "--run-dir", run], in: harness.directory)
            #expect(all.standardOutput.contains(Self.shown), "\(all.standardOutput.debugDescription)")
            #expect(isInert(all.standardOutput), "\(all.standardOutput.debugDescription)")

            let raw = try runCommand(
                "svc-supervisor", ["logs", "scribbler", "--raw", "--run-dir", run], in: harness.directory)
            #expect(
                raw.standardOutput.contains("\u{1B}]52;c;b3duZWQ=\u{07}\r2026-01-01T00:00:00Z forged \u{202E}gpj.exe"))
            await harness.shutdown()
        }

        @Test func anErrorAVerticalAnswers_isShownAsEscapes_onItsOwnLine() async throws {
            let harness = try EngineHarness([.testd("hostile")])
            try await harness.start()
            try await harness.waitFor("hostile", .ready)
            let message = #"\u001b]0;owned\u0007\u001b[2J\r\u202Eok\nerror: forged line"#
            let result = try runCommand(
                "svc-supervisor",
                [
                    "call", "hostile", "fail", #"{"code": "notFound", "message": ""# + message + #""}"#, "--run-dir",
                    harness.directory.path,
                ],
                in: harness.directory)
            #expect(result.status == 1, "\(result.standardError)")
            #expect(
                result.standardError.contains(#"\x1b]0;owned\x07\x1b[2J\r\u{202E}ok\nerror: forged line"#),
                "\(result.standardError.debugDescription)")
            #expect(isInert(result.standardError), "\(result.standardError.debugDescription)")
            #expect(!result.standardError.contains("\nerror: forged"), "a vertical's newline started a line")
            await harness.shutdown()
        }
    }
}

/// The other texts a vertical's daemon supplies, shown by the commands that print them.
@Suite("Vertical text in status, trace and describe", .blocking)
struct VerticalTextRenderingTests {
    @Test func traceWaterfall_showsASpansNameServiceAndCode_asEscapes() {
        let span = Daemon.SpanInfo(
            traceID: String(repeating: "a", count: 32), spanID: "1", parentSpanID: "", name: "get\u{1B}[2J\r\u{202E}",
            kind: "server", service: "evil\u{07}", startMicroseconds: 0, durationMicroseconds: 10,
            code: "ok\u{1B}]0;x\u{07}",
            sampled: true)
        let text = TerminalText(lines: TraceWaterfall.text([span]) + TraceWaterfall.slowest([span], count: 1)).visible
        #expect(isInert(text), "\(text.debugDescription)")
        #expect(text.contains(#"get\x1b[2J\r\u{202E}"#))
        #expect(text.contains(#"evil\x07"#))
        #expect(text.contains(#"ok\x1b]0;x\x07"#))
    }
}
