// `daemon.contractCheck`: a caller asks, on a new connection, whether the callee serves the
// contract it was compiled against. `ContractCheck` and its Input are declared in daemon.vcontract.
import VerticalsWire

extension Daemon {
    /// Whether the callee serves what a caller was compiled against: the caller sends the
    /// operations it declares and its fingerprint of them; the callee answers with its own
    /// fingerprint of the same operations, and with their description only when the two differ,
    /// so a caller whose build matches receives a few dozen bytes. PROTOCOL.md § 14.
    public static let contractCheck = Operation<ContractCheckInput, ContractCheck>(
        name, "contractCheck",
        summary: "Compare the contract a caller was compiled against with what this daemon serves.",
        errors: [.invalidInput])
}
