import Foundation
import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsContractTesting
import VerticalsServiceKit
import VerticalsTesting

/// `svc-supervisor describe` against a live daemon: the answer comes over the wire from
/// `daemon.describe`, not from the CLI's own copy of the contracts.
@Suite("svc-supervisor describe", .blocking, .serialized, .timeLimit(.minutes(2)))
struct DescribeCommandTests {
    @Test func describe_json_isTheDaemonsOwnDescription() throws {
        let harness = try ProviderHarness("clinics")
        let result = try runCommand(
            "svc-supervisor", ["describe", "clinics", "--json", "--socket-dir", harness.directory.file("sockets")],
            in: harness.directory)
        try #require(result.status == 0, "\(result.standardError)")
        let described = try Daemon.Description(json: result.standardOutput)
        let expected = ServiceDescription.make(
            name: Clinics.name, summary: Clinics.summary, operations: Clinics.operations + Daemon.operations)
        // The daemon lists operations in its routing order; the contents must be the contract's.
        #expect(described.name == expected.name && described.summary == expected.summary)
        #expect(described.operations.sorted { $0.name < $1.name } == expected.operations.sorted { $0.name < $1.name })
        #expect(described.messages.sorted { $0.name < $1.name } == expected.messages.sorted { $0.name < $1.name })
        #expect(described.enums.sorted { $0.name < $1.name } == expected.enums.sorted { $0.name < $1.name })
        let nearest = described.messages.first { $0.name == "clinics.NearestInput" }
        #expect(nearest?.fields.first { $0.name == "limit" }?.defaultValue == "5")
        #expect(described.enums.contains { $0.name == "clinics.Service" && $0.cases.contains("pharmacy") })
    }

    @Test func describe_printsOperationsWithTheirFieldsForAPerson() throws {
        let harness = try ProviderHarness("clinics")
        let result = try runCommand(
            "svc-supervisor", ["describe", "clinics", "--socket-dir", harness.directory.file("sockets")],
            in: harness.directory)
        try #require(result.status == 0, "\(result.standardError)")
        let text = result.standardOutput
        #expect(text.hasPrefix("clinics — \(Clinics.summary)"))
        #expect(
            text.contains(
                "nearest(latitude: double, longitude: double, limit: int = 5, service?: enum clinics.Service) -> clinics.NearbyClinics"
            ), "\(text)")
        #expect(text.contains("errors: invalidInput, notFound"))
        #expect(text.contains("daemon.describe() -> daemon.Description"))
        #expect(text.contains("clinics.Service: gp, pharmacy"))
    }

    @Test func describe_whenTheVerticalIsNotRunning_exitsUnavailable() throws {
        let directory = TemporaryDirectory()
        let result = try runCommand(
            "svc-supervisor", ["describe", "clinics", "--socket-dir", directory.file("sockets")], in: directory)
        #expect(result.status == 69)
        #expect(result.standardError.contains("unavailable"))
    }
}

/// `describe` in the deployment it is for: a vertical run by `svc-supervisor up`, and the
/// supervisor's own control socket.
@Suite("svc-supervisor describe under svc-supervisor up", .blocking, .serialized, .timeLimit(.minutes(2)))
struct DescribeUnderSupervisorTests {
    @Test func describe_aSupervisedVertical_andTheSupervisorItself() throws {
        let directory = TemporaryDirectory()
        let manifest = directory.file("suite.toml")
        try "[services.clinics]\nexecutable = \"svc-clinics\"\n".write(
            toFile: manifest, atomically: true, encoding: .utf8)
        let run = directory.file("run")
        let supervisor = try DaemonProcess("svc-supervisor", ["up", "--manifest", manifest, "--run-dir", run])
        defer {
            _ = try? runCommand("svc-supervisor", ["down", "--run-dir", run], in: directory)
            supervisor.stop()
        }
        var described: CommandResult?
        let answered = eventually(timeout: .seconds(20)) {
            described = try? runCommand("svc-supervisor", ["describe", "clinics", "--run-dir", run], in: directory)
            return described?.status == 0
        }
        try #require(answered, "clinics never described itself: \(described?.standardError ?? "")")
        #expect(described?.standardOutput.contains("checkSlot(clinicID: string") == true)

        let control = try runCommand(
            "svc-supervisor", ["describe", "supervisor", "--json", "--run-dir", run], in: directory)
        try #require(control.status == 0, "\(control.standardError)")
        let description = try Daemon.Description(json: control.standardOutput)
        #expect(description.name == Supervisor.name)
        #expect(Set(description.operations.map(\.name)) == Set((Supervisor.operations + Daemon.operations).map(\.name)))
    }
}
