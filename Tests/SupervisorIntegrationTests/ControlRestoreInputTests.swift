import Testing
import VerticalsContract
import VerticalsSupervisor
import VerticalsTesting
import VerticalsWire

extension EngineProcessTests.Control {
    /// What the control socket's `restore` refuses from a client other than the CLI, which never
    /// sends it: a backup file and the replica at once, neither, or a time with a file. Each is
    /// `invalidInput` naming its field, before anything stops.
    @Test(arguments: [
        Supervisor.RestoreInput(name: "ledger", file: "/tmp/ledger.sqlite", fromReplica: true),
        Supervisor.RestoreInput(name: "ledger"),
        Supervisor.RestoreInput(name: "ledger", file: "/tmp/ledger.sqlite", at: Timestamp(secondsSinceEpoch: 0)),
    ])
    func restore_ofAFileAndTheReplica_orNeither_orATimeWithAFile_isInvalidInput(
        input: Supervisor.RestoreInput
    ) async throws {
        let served = try await Served([.testd("ledger")])
        try await served.harness.waitFor("ledger", .ready)
        do {
            _ = try await served.client.call(Supervisor.restore, input)
            Issue.record("\(input) was taken")
        } catch {
            #expect(error.code == .invalidInput, "\(error)")
            #expect(error.details.contains { $0.key == "field" }, "\(error)")
        }
        #expect(try await served.harness.status("ledger").state == .ready, "nothing stopped")
        await served.close()
    }
}
