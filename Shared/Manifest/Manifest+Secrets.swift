import VerticalsContract
import VerticalsWire

extension Manifest {
    /// The service that receives each kind of secret (its `receives`), by kind: where the CLI
    /// sends a password or a token, whatever a vertical says of itself. The first claimant when
    /// two claim one kind, which ``secretProblems()`` refuses.
    public var secretRecipients: [SecretKind: String] {
        var recipients: [SecretKind: String] = [:]
        for service in services {
            for kind in service.receives where recipients[kind] == nil { recipients[kind] = service.name }
        }
        return recipients
    }

    /// Each kind of secret two or more services claim (`receives`), naming them all: the CLI
    /// must know which one vertical receives it, so `check` and `up` refuse the manifest.
    public func secretProblems() -> [ManifestError] {
        SecretKind.allCases.compactMap { kind in
            let claimants = services.filter { $0.receives.contains(kind) }.map(\.name)
            guard claimants.count > 1 else { return nil }
            return ManifestError(
                .duplicate, key: "receives",
                "\(claimants.joined(separator: " and ")) all receive \"\(kind)\": one vertical receives each kind of "
                    + "secret, so the CLI knows where a password or token may go; keep it in one service's receives",
                values: [ErrorDetail("secret", "\(kind)"), ErrorDetail("services", claimants.joined(separator: ","))])
        }
    }
}
