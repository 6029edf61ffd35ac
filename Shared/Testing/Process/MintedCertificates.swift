import Glibc
import Testing

/// A certificates folder from the built `svc-supervisor certs`, for a manifest of the
/// services named (each a bare `vt-testd`): the suite CA, each service's and the operator's files.
public enum MintedCertificates {
    /// Mints into `directory/certs` and returns that folder; fails the test when `certs` does.
    public static func make(for services: [String], in directory: TemporaryDirectory) throws -> String {
        let manifest = directory.file("certs.toml")
        let file = fopen(manifest, "w")
        for service in services { fputs("[services.\(service)]\nexecutable = \"vt-testd\"\n", file) }
        fclose(file)
        let certs = directory.file("certs")
        let minted = try runCommand("svc-supervisor", ["certs", certs, "--manifest", manifest], in: directory)
        try #require(minted.status == 0, "\(minted.standardError)")
        return certs
    }
}
