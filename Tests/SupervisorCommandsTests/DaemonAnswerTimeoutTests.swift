import Testing

@testable import VerticalsSupervisorCommands

/// `--timeout` of the commands that ask every daemon in turn (`metrics`, `trace`): one option,
/// parsed and checked once.
struct DaemonAnswerTimeoutTests {
    @Test func aTimeout_isEachAnswersDeadline_twoSecondsUnlessGiven() throws {
        #expect(try MetricsCommand.parse([]).answer.duration == .seconds(2))
        #expect(try MetricsCommand.parse(["--timeout", "0.5"]).answer.duration == .milliseconds(500))
        #expect(try TraceCommand.parse(["--slowest", "3", "--timeout", "1.5"]).answer.duration == .milliseconds(1500))
    }

    @Test(arguments: [["--timeout", "0"], ["--timeout=-1"]])
    func aTimeoutThatIsNotPositive_isRefused(_ words: [String]) {
        #expect(throws: (any Error).self) { try MetricsCommand.parse(words) }
        #expect(throws: (any Error).self) { try TraceCommand.parse(["--slowest", "3"] + words) }
    }
}
