import Logging
import Testing

@testable import VerticalsObservability

/// The run-time log level's literals stand for the levels they are meant to: `info` at start,
/// `debug` for the per-request check.
struct RuntimeLogLevelTests {
    @Test func theLiterals_areInfoAndDebugInSwiftLogsOrder() {
        #expect(RuntimeLogLevel.index(of: .info) == 2, "RuntimeLogLevel starts at index 2, meant to be info")
        #expect(RuntimeLogLevel.index(of: .debug) == RuntimeLogLevel.debugIndex)
    }

    @Test func allowsDebug_followsTheLevel() {
        let before = RuntimeLogLevel.current
        defer { RuntimeLogLevel.current = before }
        RuntimeLogLevel.current = .debug
        #expect(RuntimeLogLevel.allowsDebug)
        RuntimeLogLevel.current = .trace
        #expect(RuntimeLogLevel.allowsDebug)
        RuntimeLogLevel.current = .info
        #expect(!RuntimeLogLevel.allowsDebug)
    }
}
