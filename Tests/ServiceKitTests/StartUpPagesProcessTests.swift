import Glibc
import IOInterface
import TestSupport
import Testing
import VerticalsContract
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// A daemon that has served for a moment gives back the pages only its start-up used (its
/// mappings of clean read-only file pages: ``MappedPages/dropReadOnlyFilePages()``), and
/// serves on from the page cache.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct StartUpPagesProcessTests {
    let echo = TestEcho()

    @Test func aServingDaemon_givesBackItsStartUpPages_andServesOn() async throws {
        let suite = try SuiteFixture()
        let log = suite.directory.file("stderr")
        let daemon = try suite.start(extra: ["VERTICALS_LOG_LEVEL": "debug"], stderrPath: log)
        #expect(try await suite.client.call(echo.echo, .init(text: "before")).text == "before")
        var line: Substring?
        #expect(eventually {
            line = (readFile(log) ?? "").split(separator: "\n").first { $0.contains("start-up's pages given back") }
            return line != nil
        }, "vt-testd never said it gave back its start-up pages: \(readFile(log) ?? "")")
        let said = try #require(line)
        // "… (N KiB of read-only file pages; resident B KiB before, A KiB after)"
        let numbers = said.split { !$0.isNumber }.compactMap { Int($0) }.suffix(3)
        try #require(numbers.count == 3, "\(said)")
        let (dropped, before, after) = (numbers[numbers.startIndex], numbers[numbers.startIndex + 1], numbers[numbers.startIndex + 2])
        #expect(dropped > 1024, "\(said)")
        #expect(after < before, "\(said)")
        #expect(try await suite.client.call(echo.echo, .init(text: "after")).text == "after", "it serves on")
        #expect(kill(daemon.pid, 0) == 0, "and runs on")
    }

    /// `VERTICALS_STARTUP_PAGES=keep`: nothing is given back, however long it serves. Waits for
    /// a fact that comes after the settle instead of for the settle: a second daemon, started
    /// after this one, gives its pages back; by then this one's second has long passed.
    @Test func keep_leavesThePagesMapped() async throws {
        let suite = try SuiteFixture()
        let kept = suite.directory.file("kept.stderr")
        let released = suite.directory.file("released.stderr")
        try suite.start(extra: ["VERTICALS_LOG_LEVEL": "debug", ServiceRuntime.startUpPagesVariable: "keep"], stderrPath: kept)
        #expect(try await suite.client.call(echo.echo, .init(text: "kept")).text == "kept")
        try suite.start("other", extra: ["VERTICALS_LOG_LEVEL": "debug"], stderrPath: released)
        #expect(eventually { readFile(released)?.contains("start-up's pages given back") == true }, "\(readFile(released) ?? "")")
        // Its loop has run since its own second passed: a timer armed then would have fired.
        #expect(try await suite.client.call(echo.echo, .init(text: "still kept")).text == "still kept")
        #expect(readFile(kept)?.contains("start-up's pages given back") == false, "\(readFile(kept) ?? "")")
    }
}
