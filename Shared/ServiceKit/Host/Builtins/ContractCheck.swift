import Synchronization
import VerticalsClient
import VerticalsContract
import VerticalsWire

extension Builtins {
    /// The most operations one `daemon.contractCheck` may ask about: far more than any caller
    /// declares of one vertical, few enough that an answer stays small.
    static let contractCheckLimit = 1024

    /// The most distinct sets of operations whose fingerprint is kept: more than the callers of
    /// one vertical ask about. Each is kept by the operations of it this daemon serves, so an entry
    /// is never larger than the daemon's own description; once full, the set least recently asked
    /// about is forgotten, so a caller asking about ever new sets cannot grow the table.
    static let contractCheckSetsKept = 64

    /// Serves `daemon.contractCheck`: the fingerprint of the operations asked about as this
    /// daemon serves them (`ContractFingerprint`), and their description when the caller's
    /// fingerprint differs. Each name asked about is first held to the grammar of names
    /// (``WireName``, `invalidInput` otherwise) before it is hashed or sorted, and the fingerprint
    /// of each set asked about is kept (``contractCheckSetsKept``), so a suite's callers, which ask
    /// about the same few sets on every new connection, cost one table lookup on the loop after
    /// the first; a set not known yet is described and hashed off the loop, on the blocking-work
    /// threads (``Offload/run(_:)``). Not on the compute threads: they run far below the daemon's
    /// priority and queue behind password hashes, and this short, bounded work stands between every
    /// new connection and its first call.
    static func installContractCheck(into router: inout Router, configuration: HostConfiguration) {
        guard !router.routes(Daemon.contractCheck.fullName) else { return }
        var served = router.operations
        for builtin in Daemon.operations where !served.contains(where: { $0.fullName == builtin.fullName }) {
            served.append(builtin)
        }
        let byName = Dictionary(served.map { ($0.fullName, $0) }, uniquingKeysWith: { first, _ in first })
        let service = router.service
        let known = Mutex(
            BoundedCache<[String], (fingerprint: String, description: Daemon.Description)>(
                capacity: contractCheckSetsKept))
        /// The operations `input` asks about that this daemon serves, as the key of their
        /// fingerprint: each name held to the grammar first.
        @Sendable func asked(_ input: Daemon.ContractCheckInput) throws -> [OperationDescriptor] {
            guard input.operations.count <= contractCheckLimit else {
                throw ServiceError(
                    .invalidInput,
                    "asked about \(input.operations.count) operations; at most \(contractCheckLimit) at once",
                    details: [ErrorDetail("field", "operations")])
            }
            for (index, name) in input.operations.enumerated() {
                if let problem = WireName.problem(name) {
                    throw ServiceError(
                        .invalidInput, "operations[\(index)] is not an operation's name: \(problem)",
                        details: [ErrorDetail("field", "operations")])
                }
            }
            // Checked names are ASCII: hashing and sorting them is byte work.
            let names = Array(Set(input.operations)).sorted(by: { WireName.precedes($0, $1) })
            // What is not served adds nothing to the fingerprint, so it is no part of the key.
            return names.compactMap { byName[$0] }
        }
        @Sendable func answer(
            _ mine: (fingerprint: String, description: Daemon.Description), to input: Daemon.ContractCheckInput
        ) -> Daemon.ContractCheck {
            Daemon.ContractCheck(
                service: service, fingerprint: mine.fingerprint, version: VerticalsVersion.current,
                description: mine.fingerprint == input.fingerprint ? nil : mine.description)
        }
        router.onSync(
            Daemon.contractCheck,
            atOnce: { input, _ in
                let key = try asked(input).map(\.fullName)
                return known.withLock { $0.value(for: key) }.map { answer($0, to: input) }
            },
            later: { input, _ in
                let operations = try asked(input)
                let mine = try await Offload.run {
                    let description = ContractFingerprint.description(of: service, operations)
                    return (fingerprint: ContractFingerprint.of(description), description: description)
                }
                known.withLock { _ = $0.store(mine, for: operations.map(\.fullName)) }
                return answer(mine, to: input)
            })
    }
}
