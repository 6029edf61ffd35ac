import VerticalsDeploy
import VerticalsSupervisor
import VerticalsTesting

/// The tests' suite on two hosts from one manifest (`Fixtures/two-hosts.toml`), and its units per host.
enum SystemdHostsFixture {
    /// The two hosts the manifest places services on.
    static let hosts = ["a", "b"]

    /// `Fixtures/two-hosts.toml` parsed for `layout`.
    static func manifest(layout: SystemdLayout = SystemdLayout()) throws -> Manifest {
        try DeployFixture.load("\(DeployFixture.fixtures)/two-hosts.toml", binDirectory: layout.binDirectory)
    }

    /// Host `host`'s files.
    static func files(host: String, layout: SystemdLayout = SystemdLayout()) throws -> [String: String] {
        try SystemdExport.files(for: manifest(layout: layout), layout: layout, host: host)
    }

    /// Every value of `key` in `unit`, split on spaces.
    static func words(_ key: String, in unit: String) -> [String] {
        DeployFixture.values(key, in: unit).flatMap { $0.split(separator: " ").map(String.init) }
    }

    /// `VAR=value` of every `Environment=` line, unquoted.
    static func environment(_ unit: String) -> [String: String] {
        var out: [String: String] = [:]
        for value in DeployFixture.values("Environment", in: unit) {
            let text = value.hasPrefix("\"") && value.hasSuffix("\"") ? String(value.dropFirst().dropLast()) : value
            guard let equals = text.firstIndex(of: "=") else { continue }
            out[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        return out
    }
}
