import Foundation
import Testing
@testable import VerticalsSupervisor

/// Which stderr line a failed exit's reason quotes (the engine's tests cover the wiring).
@Suite struct ServiceLogExplanationTests {
    private func log(in directory: URL) -> ServiceLog {
        ServiceLog(path: directory.appendingPathComponent("unit.log").path, maxBytes: 1 << 20)
    }

    private func temporaryDirectory() throws -> URL {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "vt.\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func anOldLine_explainsOnlyAnExitBeforeReadiness() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = log(in: directory)
        // Recent: inside a window no stall between two lines of this test outlasts.
        log.explanationWindow = .seconds(60)
        log.append(stream: 2, Array("warning: cache cold\n".utf8))
        #expect(log.exitExplanation(neverReady: false) == "warning: cache cold")
        // Old: a sleep lasts at least as long as asked, so the line is now older than 50 ms.
        log.explanationWindow = .milliseconds(50)
        try await Task.sleep(for: .milliseconds(120))
        #expect(log.exitExplanation(neverReady: false) == nil)
        #expect(log.exitExplanation(neverReady: true) == "warning: cache cold")
        log.close()
    }

    @Test func stdout_andAForgottenProcess_explainNothing() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = log(in: directory)
        log.append(stream: 1, Array("serving\n".utf8))
        #expect(log.exitExplanation(neverReady: true) == nil)
        log.append(stream: 2, Array("*** Program crashed: Bus error at 0x0 ***\nBacktrace took 0.01s\n".utf8))
        #expect(log.exitExplanation(neverReady: false) == "crashed: Bus error at 0x0")
        log.forgetErrorLines()
        #expect(log.exitExplanation(neverReady: true) == nil)
        log.close()
    }
}
