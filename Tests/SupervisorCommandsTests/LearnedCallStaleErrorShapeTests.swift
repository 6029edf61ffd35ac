import Testing
import VerticalsContract
import VerticalsSupervisorClient
import VerticalsWire

@testable import VerticalsSupervisorCommands

/// `LearnedCall.Stale` in the framework's one error shape (`CodedError`): its code says the
/// cached contract may be stale, and the refusal it would report is its message and cause.
struct LearnedCallStaleErrorShapeTests {
    @Test func anOperationTheContractLacks_isStale_withTheRefusalAsCause() throws {
        let contract = try DescribedContract(
            Daemon.Description(name: "shop", summary: "A test service.", operations: [], messages: [], enums: []))

        let stale = #expect(throws: LearnedCall.Stale.self) { _ = try LearnedCall.operation("buy", in: contract) }

        #expect(stale?.code == .staleContract)
        #expect(stale?.refusal.code == .notFound && stale?.refusal.status == 64)
        #expect((stale?.cause as? CLIError) == stale?.refusal)
        #expect(stale?.message == stale?.refusal.message)
    }
}
