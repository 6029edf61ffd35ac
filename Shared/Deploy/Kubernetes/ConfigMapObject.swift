import VerticalsContract
import VerticalsManifest

/// A vertical's environment as a ConfigMap (`envFrom`): the manifest's `env`, then what the
/// export adds — where it listens, where each dependency is, where its store and TLS files are.
///
/// | variable | value |
/// |---|---|
/// | `VERTICALS_LISTEN` | `tcp:0.0.0.0:<port>` |
/// | `VERTICALS_ENDPOINT_<DEP>` | `tcp:<dep>:<port>`, per `depends_on` |
/// | `VERTICALS_ENDPOINT_<SELF>` | `tcp:127.0.0.1:<port>`: what `--probe` and `kubectl exec … svc-supervisor call` dial |
/// | `STATE_DIRECTORY` | the store's volume (an emptyDir for a stateless vertical) |
/// | `VERTICALS_TLS_CERT`, `_KEY`, `_CA` | the files of the vertical's TLS Secret |
/// | `VERTICALS_PROBE_TIMEOUT_SECONDS` | the `daemon.health` deadline of `--probe` |
/// | `VERTICALS_DEPENDS_ON` | its `depends_on`, which the daemon checks its code's calls against |
/// | `VERTICALS_ALLOWED_OPERATIONS` | which of its operations each caller may call, from the callers' `depends_on` (``ServiceAccounts/applyRoutes(to:for:in:)``) |
/// | `VERTICALS_ALLOWED_PEERS`, `_INTERNAL_PEERS` | the certificate names it admits: the verticals that declare it, and `operator` (``ServiceAccounts/applyPeers(to:for:in:)``) |
enum ConfigMapObject {
    /// The variables, the manifest's first (its own values win over none of the export's:
    /// a manifest that sets one of the export's names is refused by ``KubernetesExport/check(_:layout:)``).
    static func environment(_ spec: ServiceSpec, in manifest: Manifest, layout: KubernetesLayout) -> [String: String] {
        var environment = spec.environment
        environment["VERTICALS_LISTEN"] = layout.listen
        for dependency in spec.dependsOn {
            environment[KubernetesLayout.endpointVariable(dependency)] = layout.endpoint(dependency)
        }
        environment[KubernetesLayout.endpointVariable(spec.name)] = layout.ownEndpoint
        // A stateless vertical's folder is an emptyDir: the daemon still writes its backups there.
        environment["STATE_DIRECTORY"] = "\(layout.stateRoot)/\(spec.name)"
        environment["VERTICALS_SOCKET_DIR"] = KubernetesWorkload.runDirectory
        environment["VERTICALS_TLS_CERT"] = "\(layout.tlsDirectory)/tls.crt"
        environment["VERTICALS_TLS_KEY"] = "\(layout.tlsDirectory)/tls.key"
        environment["VERTICALS_TLS_CA"] = "\(layout.tlsDirectory)/ca.crt"
        environment["VERTICALS_PROBE_TIMEOUT_SECONDS"] = KubernetesTiming.seconds(KubernetesTiming.probeTimeout(spec))
        ServiceAccounts.applyDependencies(to: &environment, for: spec)
        ServiceAccounts.applyPeers(to: &environment, for: spec, in: manifest)
        ServiceAccounts.applyRoutes(to: &environment, for: spec, in: manifest)
        return environment
    }

    /// The names the export sets, which a manifest's `env` may not.
    static let exportedNames: Set<String> = [
        "VERTICALS_LISTEN", "STATE_DIRECTORY", "VERTICALS_SOCKET_DIR", "VERTICALS_TLS_CERT", "VERTICALS_TLS_KEY",
        "VERTICALS_TLS_CA", "VERTICALS_PROBE_TIMEOUT_SECONDS", DaemonEnvironment.dependsOnVariable, "VERTICALS_ALLOWED_PEERS",
        "VERTICALS_INTERNAL_PEERS", ServiceAccounts.allowedOperationsVariable,
    ]

    /// The object.
    static func make(_ spec: ServiceSpec, in manifest: Manifest, layout: KubernetesLayout) -> KubernetesObject {
        KubernetesObject(
            apiVersion: "v1", kind: "ConfigMap", name: layout.configMap(spec.name), namespace: layout.namespace,
            labels: layout.labels(spec.name), [("data", .strings(environment(spec, in: manifest, layout: layout)))])
    }
}
