import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsTesting

/// A call whose vertical depends on one the operator stopped: refused at once, and the error
/// the CLI prints names the stopped dependency and how to start it, not the vertical asked.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct StoppedDependencyTests {
    @Test func book_whileClinicsIsStopped_failsAtOnce_namingClinicsAndHowToStartIt() async throws {
        let suite = try SupervisedSuite()
        try await suite.up()
        defer { suite.down() }
        #expect(await suite.waitUntilAllReady())
        let token = try await suite.newPatient("stopped-dependency")

        let stop = try runCommand("svc-supervisor", ["stop", "clinics", "--run-dir", suite.run], in: suite.directory)
        #expect(stop.status == 0, "\(stop.standardError)")
        let input = """
            {"token": "\(token)", "clinicID": "c_0001", "service": "gp", "startsAt": "2030-01-07T10:00:00Z",
             "durationMinutes": 20, "reason": "cough", "requestID": "stopped-dependency-1"}
            """
        try expectRefusedAtOnce(naming: "clinics") {
            try runCommand(
                "svc-supervisor", ["call", "--socket-dir", suite.run + "/sockets", "appointments", "book", input],
                in: suite.directory)
        }
    }
}
