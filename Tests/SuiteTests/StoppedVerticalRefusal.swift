import Testing
import VerticalsTesting

/// Runs `command` (a `svc-supervisor call` that needs `stopped`, which the operator stopped) and
/// expects what it should get: refused well inside its 10 s deadline, exit 69, naming `stopped`
/// as unreachable and stopped, and the command that starts it.
func expectRefusedAtOnce(
    naming stopped: String, _ command: () throws -> CommandResult, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let began = ContinuousClock.now
    let refused = try command()
    #expect(
        ContinuousClock.now - began < .seconds(2), "the call waited for its deadline", sourceLocation: sourceLocation)
    #expect(refused.status == 69, "\(refused.standardError)", sourceLocation: sourceLocation)
    #expect(
        refused.standardError.contains("\(stopped) is not reachable"), "\(refused.standardError)",
        sourceLocation: sourceLocation)
    #expect(
        refused.standardError.contains("hint: \(stopped) is stopped")
            && refused.standardError.contains("svc-supervisor start \(stopped)"), "\(refused.standardError)",
        sourceLocation: sourceLocation)
}
