import VerticalsContract

extension Daemon.ContractCheck {
    /// The answer of a callee `echo` whose fingerprint (all zeros) matches no build's, with
    /// `served` as what it serves.
    static func differing(_ served: Daemon.Description) -> Self {
        Self(
            service: "echo", fingerprint: "sha256:" + String(repeating: "0", count: 64), version: "0.2.0",
            description: served)
    }
}
