import Glibc
import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire
import VerticalsSharedTesting

/// `VERTICALS_LOOPS` on a real daemon: a loop thread per count, an idle daemon whose loops all
/// hold connections still wakes never, and a count that is not one stops it with status 78.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct MultiLoopProcessTests {
    let echo = TestEcho()

    @Test func fourLoopsHoldingIdleConnections_wakeNever() async throws {
        let suite = try SuiteFixture()
        let daemon = try suite.start(extra: IdleWakeUpTests.quickSweep.merging([LoopCount.variable: "4"]) { $1 })
        #expect(
            Set(threadNames(daemon.pid)).isSuperset(of: ["echo", "echo-1", "echo-2", "echo-3"]),
            "\(threadNames(daemon.pid))")
        // Five connections, kept open: at least one on every loop (the fewest-connections pick).
        let raws = try (0..<4).map { _ in try RawClient(path: suite.socket()) }
        for raw in raws { #expect(raw.pingAnswered()) }
        _ = try await suite.client.call(echo.echo, .init(text: "then idle"))
        let wakeUps = try await DaemonProcess.quietestWindow(of: daemon.pid)
        #expect(
            wakeUps == 0, "vt-testd on 4 loops woke \(wakeUps) times in every 3 s window with idle connections open")
        for raw in raws { #expect(raw.pingAnswered()) }
        #expect(try await suite.client.call(echo.echo, .init(text: "awake again")).text == "awake again")
    }

    @Test(arguments: ["0", "many"])
    func aLoopCountThatIsNotOne_stopsTheDaemonWith78(text: String) throws {
        let suite = try SuiteFixture()
        let log = suite.directory.file("stderr")
        let daemon = try suite.start(extra: [LoopCount.variable: text], waitForSocket: false, stderrPath: log)
        let status = daemon.waitForExit()
        #expect(status.map { ($0 >> 8) & 0xff } == 78, "wait status \(String(describing: status))")
        let text = readFile(log) ?? ""
        #expect(text.contains("VERTICALS_LOOPS") && text.contains("not a number of event loops"), "\(text)")
    }

    /// The names of the threads of `pid` (`/proc/PID/task/TID/comm`).
    private func threadNames(_ pid: pid_t) -> [String] {
        guard let tasks = opendir("/proc/\(pid)/task") else { return [] }
        defer { closedir(tasks) }
        var names: [String] = []
        while let entry = readdir(tasks) {
            let tid = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard tid.first?.isNumber == true, let file = fopen("/proc/\(pid)/task/\(tid)/comm", "r") else { continue }
            var buffer = [CChar](repeating: 0, count: 32)
            if fgets(&buffer, 32, file) != nil {
                names.append(
                    String(decoding: buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                )
            }
            fclose(file)
        }
        return names
    }
}
