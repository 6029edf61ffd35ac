import Testing
import VerticalsTesting

/// The CLI's behaviour without a running supervisor: real argv, real exit statuses.
@Suite("svc-supervisor without a supervisor", .blocking)
struct ControlCLITests {
    @Test(arguments: [["status"], ["stop", "ledger"], ["reload"], ["down"]])
    func command_withNoSupervisor_exits69_sayingHowToStartOne(arguments: [String]) throws {
        let directory = TemporaryDirectory()
        let result = try runCommand("svc-supervisor", arguments + ["--run-dir", directory.path], in: directory)
        #expect(result.status == 69)
        #expect(
            result.standardError.contains(
                "no supervisor at \(directory.path)/supervisor.sock: start it with `make run`"),
            "\(result.standardError)")
    }

    @Test func logs_ofAnUnknownService_exits66_namingTheFile() throws {
        let directory = TemporaryDirectory()
        let result = try runCommand("svc-supervisor", ["logs", "nobody", "--run-dir", directory.path], in: directory)
        #expect(result.status == 66)
        #expect(result.standardError.contains("\(directory.path)/logs/nobody.log"))
    }

    @Test func statusHelp_offersJSON() throws {
        let directory = TemporaryDirectory()
        let result = try runCommand("svc-supervisor", ["status", "--help"], in: directory)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("--json"))
    }
}
