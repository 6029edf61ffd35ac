import VerticalsDeploy
import VerticalsDeployTesting
import VerticalsSupervisor
import VerticalsTesting

/// Shared by the Kubernetes export tests: manifests parsed as `export kubernetes` parses them,
/// and the objects by kind.
enum KubernetesFixture {
    /// The tests' suite (``DeployFixture/suitePath``), with bare executables in the image's bin folder.
    static func suiteManifest() throws -> Manifest {
        try DeployFixture.load(DeployFixture.suitePath, binDirectory: KubernetesLayout().binDirectory)
    }

    /// Manifest `text`, with bare executables in the image's bin folder.
    static func manifest(_ text: String) throws -> Manifest {
        let (manifest, problems) = ManifestParser.parse(
            text: text, baseDirectory: "/etc/vt", binDirectory: KubernetesLayout().binDirectory, checkExecutables: false
        )
        guard problems.isEmpty else { throw FixtureError("\(problems)") }
        return manifest
    }

    /// A manifest that uses what the tests' suite does not: a stateless vertical, a name with
    /// a dash, liveness, limits, arguments, env and a longer drain.
    static let variedManifest = """
        [defaults]
        stop_timeout = "5s"

        [services.ledger]
        executable = "svc-ledger"

        [services.price-list]
        executable = "svc-price-list"
        args = ["--verbose", "yes"]
        store = false
        depends_on = ["ledger"]
        env = { GREETING = "on: 1 # not a comment", VERTICALS_DRAIN_SECONDS = "30" }
        liveness = { interval = "7s", timeout = "1500ms", failures = 4 }
        limits = { memory = "256MiB", cpu = "150%", open_files = 512 }
        stop_timeout = "45s"

        [services.orders]
        executable = "svc-orders"
        depends_on = ["ledger", "price-list"]
        """

    /// Every object of `files`, flattened, in order.
    static func all(_ files: [(file: String, objects: [KubernetesObject])]) -> [KubernetesObject] {
        files.flatMap(\.objects)
    }

    /// `node` as JSON text, for comparing with what a YAML reader makes of the emitted text.
    static func json(_ node: YAMLNode) -> String {
        switch node {
        case .string(let text): jsonString(text)
        case .int(let value): String(value)
        case .bool(let value): value ? "true" : "false"
        case .list(let items): "[" + items.map(json).joined(separator: ",") + "]"
        case .map(let pairs): "{" + pairs.map { jsonString($0.0) + ":" + json($0.1) }.joined(separator: ",") + "}"
        }
    }

    /// `text` as a JSON string: a TOML basic string is one (the same escapes, and `\u007f` reads as
    /// DEL in both).
    private static func jsonString(_ text: String) -> String { HostileText.tomlString(text) }
}
