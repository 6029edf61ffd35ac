import Synchronization
import VerticalsClient
import VerticalsContract
import VerticalsWire

extension Builtins {
    /// The most operations one `daemon.contractCheck` may ask about: far more than any caller
    /// declares of one vertical, few enough that an answer stays small.
    static let contractCheckLimit = 1024

    /// Serves `daemon.contractCheck`: the fingerprint of the operations asked about as this
    /// daemon serves them (`ContractFingerprint`), and their description when the caller's
    /// fingerprint differs. Answered on the loop (`onSync`); the fingerprint of each set asked
    /// about is kept, so a suite's callers, which ask about the same few sets on every new
    /// connection, cost one table lookup after the first.
    static func installContractCheck(into router: inout Router, configuration: HostConfiguration) {
        guard !router.routes(Daemon.contractCheck.fullName) else { return }
        var served = router.operations
        for builtin in Daemon.operations where !served.contains(where: { $0.fullName == builtin.fullName }) {
            served.append(builtin)
        }
        let byName = Dictionary(served.map { ($0.fullName, $0) }, uniquingKeysWith: { first, _ in first })
        let service = router.service
        let known = Mutex<[[String]: (fingerprint: String, description: Daemon.Description)]>([:])
        router.onSync(Daemon.contractCheck) { input, _ in
            guard input.operations.count <= contractCheckLimit else {
                throw ServiceError(
                    .invalidInput,
                    "asked about \(input.operations.count) operations; at most \(contractCheckLimit) at once",
                    details: [ErrorDetail("field", "operations")])
            }
            let names = Array(Set(input.operations)).sorted()
            let mine = known.withLock { table in
                if let kept = table[names] { return kept }
                let description = ContractFingerprint.description(of: service, names.compactMap { byName[$0] })
                let made = (ContractFingerprint.of(description), description)
                if table.count < 64 { table[names] = made }
                return made
            }
            return Daemon.ContractCheck(
                service: service, fingerprint: mine.fingerprint, version: VerticalsVersion.current,
                description: mine.fingerprint == input.fingerprint ? nil : mine.description)
        }
    }
}
