import Foundation
import IOInterface
import Testing
import VerticalsContract
import VerticalsContractTesting

/// Consumer-driven contracts: each consumer's `Services/<Consumer>/Contracts/<provider>.json`
/// replayed against the real provider daemon with a fresh store. An interaction the
/// provider does not honour fails here, naming the consumer, the interaction and its file.
@Suite("Provider verification", .blocking, .serialized, .timeLimit(.minutes(2)))
struct ProviderVerificationTests {
    static let root = files.folder.deletingLastPathComponent().deletingLastPathComponent()

    @Test("the provider honours every consumer's interactions", arguments: ProviderHarness.daemons.keys.sorted())
    func provider_honoursEveryInteractionItsConsumersDeclare(provider: String) async throws {
        let contracts = try ConsumerContract.all(root: Self.root).filter { $0.provider == provider }
        try #require(!contracts.isEmpty, "no consumer declares what it needs from \(provider)")
        let harness = try ProviderHarness(provider)
        for contract in contracts {
            for interaction in contract.interactions {
                for problem in await harness.verify(interaction, of: contract) { Issue.record("\(problem)") }
            }
        }
    }

    @Test func everyProviderAConsumerNames_isVerified_andEveryConsumerDeclaresItsCalls() throws {
        let contracts = try ConsumerContract.all(root: Self.root)
        for contract in contracts {
            #expect(
                ProviderHarness.daemons[contract.provider] != nil,
                "\(contract.path): \(contract.consumer) relies on \(contract.provider), which no verification starts")
            #expect(contract.path.contains("/Services/"), "\(contract.path)")
            // The supervisor is framework: it calls only operations a vertical marks (login, admin), found by the mark.
            #expect(contract.consumer != "supervisor", "\(contract.path): the supervisor names no vertical's operation")
        }
        // What the consumers' code calls (read from their sources) is declared by them.
        let pairs = Set(contracts.map { "\($0.consumer) → \($0.provider)" })
        for pair in [
            "appointments → identity", "appointments → clinics", "appointments → notifications",
            "records → identity", "records → clinics", "notifications → identity", "clinics → identity",
        ] {
            #expect(pairs.contains(pair), "no consumer contract for \(pair)")
        }
    }

    @Test func anInteractionTheProviderDoesNotHonour_failsNamingTheConsumer() async throws {
        let text = """
            {"consumer": "appointments", "provider": "identity", "interactions": [
              {"description": "wants notFound for a valid token", "state": "a logged-in patient",
               "operation": "authenticate", "input": {"token": "{{token}}"}, "expect": {"error": "notFound"}},
              {"description": "wants a field identity does not answer", "state": "a logged-in patient",
               "operation": "authenticate", "input": {"token": "{{token}}"}, "expect": {"output": {"userID": "u_other"}}},
              {"description": "calls an operation identity does not have", "state": "a logged-in patient",
               "operation": "teleport", "input": {}, "expect": {"output": {}}},
              {"description": "needs a state identity cannot set up", "state": "a user on holiday",
               "operation": "authenticate", "input": {"token": "x"}, "expect": {"error": "unauthenticated"}}
            ]}
            """
        let contract = try ConsumerContract(text: text, path: "Services/Appointments/Contracts/identity.json")
        let harness = try ProviderHarness("identity")
        var problems: [String] = []
        for interaction in contract.interactions { problems += await harness.verify(interaction, of: contract) }
        #expect(problems.count == 4, "\(problems)")
        #expect(problems.allSatisfy { $0.hasPrefix("appointments → identity.") }, "\(problems)")
        #expect(problems.contains { $0.contains("expected error notFound") })
        #expect(problems.contains { $0.contains(".userID: expected \"u_other\"") })
        #expect(problems.contains { $0.contains("no longer declares teleport") })
        #expect(problems.contains { $0.contains("no provider state \"a user on holiday\"") })
    }
}
