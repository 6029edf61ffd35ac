import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsSupervisorClient
import VerticalsWire

/// What the running suite says it serves: each vertical's contract from its own
/// `daemon.describe`, and the operations to fuzz. No list is kept here: a vertical added to the
/// manifest is fuzzed the next run.
struct SuiteContracts {
    /// Each vertical's learned contract, in the supervisor's order.
    let contracts: [DescribedContract]

    /// Built-ins left alone: `daemon.backup` writes a copy of the store wherever it is told.
    static let skipped: Set<String> = [Daemon.backup.fullName]

    /// One operation of one vertical.
    struct Target: Sendable {
        /// The vertical that serves it (a `daemon.*` built-in is served by each).
        let vertical: String
        let operation: DescribedOperation
        /// Whether it is the vertical's own, not a `daemon.*` built-in.
        var isOwn: Bool { operation.service == vertical }
        /// `vertical operation` as `svc-supervisor call` takes it.
        var label: String { "\(vertical).\(isOwn ? operation.name : operation.fullName)" }
    }

    /// Asks each of `verticals` to describe itself through `client`.
    static func learn(_ verticals: [String], client: ServiceClient) async throws -> SuiteContracts {
        var contracts: [DescribedContract] = []
        for name in verticals {
            let body = try await client.callRaw(
                service: name, operation: Daemon.describe.fullName, body: Empty().encodedBody(), timeout: .seconds(10))
            contracts.append(try DescribedContract(try Daemon.Description(decoding: body)))
        }
        return SuiteContracts(contracts: contracts)
    }

    /// Every operation to fuzz: each vertical's own, and the built-ins every daemon serves (but
    /// ``skipped``); streams are left out (they answer with events, not one response).
    var targets: [Target] {
        contracts.flatMap { contract in
            contract.operations.filter { !$0.isStream && !Self.skipped.contains($0.fullName) }.map {
                Target(vertical: contract.name, operation: $0)
            }
        }
    }

    /// The first operation marked `mark`, with its vertical.
    func operation(marked mark: OperationMark) -> Target? {
        for contract in contracts {
            if let operation = contract.ownOperations.first(where: { $0.marks.contains(mark) }) {
                return Target(vertical: contract.name, operation: operation)
            }
        }
        return nil
    }
}
