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
/// | `VERTICALS_STORE_REPLICA` | `litestream`, with a `replica` (its Litestream runs beside it: ``LitestreamSidecar``) |
/// | `VERTICALS_ALLOWED_PEERS`, `_INTERNAL_PEERS` | the certificate names it admits: the verticals that declare it, and `operator` (``ServiceAccounts/applyPeers(to:for:in:)``) |
enum ConfigMapObject {
    /// The variables, the manifest's first (its own values win over none of the export's:
    /// a manifest that sets one of the export's names is refused by ``KubernetesExport/check(_:layout:)``).
    static func environment(_ spec: ServiceSpec, in manifest: Manifest, layout: KubernetesLayout) -> [String: String] {
        var environment = spec.environment
        environment[DaemonSettings.listen.name] = layout.listen
        for dependency in spec.dependsOn {
            environment[KubernetesLayout.endpointVariable(dependency)] = layout.endpoint(dependency)
        }
        environment[KubernetesLayout.endpointVariable(spec.name)] = layout.ownEndpoint
        // A stateless vertical's folder is an emptyDir: the daemon still writes its backups there.
        environment["STATE_DIRECTORY"] = "\(layout.stateRoot)/\(spec.name)"
        environment[DaemonSettings.socketDir.name] = KubernetesWorkload.runDirectory
        environment[DaemonSettings.tlsCert.name] = "\(layout.tlsDirectory)/tls.crt"
        environment[DaemonSettings.tlsKey.name] = "\(layout.tlsDirectory)/tls.key"
        environment[DaemonSettings.tlsCA.name] = "\(layout.tlsDirectory)/ca.crt"
        environment[DaemonSettings.probeTimeoutSeconds.name] = KubernetesTiming.seconds(
            KubernetesTiming.probeTimeout(spec))
        ServiceAccounts.applyDependencies(to: &environment, for: spec)
        ServiceAccounts.applyPeers(to: &environment, for: spec, in: manifest)
        ServiceAccounts.applyRoutes(to: &environment, for: spec, in: manifest)
        if spec.replica != nil { environment[DaemonSettings.storeReplica.name] = "litestream" }
        return environment
    }

    /// The names the export sets, which a manifest's `env` may not.
    static let exportedNames: Set<String> = [
        DaemonSettings.listen.name, "STATE_DIRECTORY", DaemonSettings.socketDir.name, DaemonSettings.tlsCert.name,
        DaemonSettings.tlsKey.name,
        DaemonSettings.tlsCA.name, DaemonSettings.probeTimeoutSeconds.name, DaemonEnvironment.dependsOnVariable,
        DaemonSettings.allowedPeers.name,
        DaemonSettings.internalPeers.name, ServiceAccounts.allowedOperationsVariable,
    ]

    /// The object.
    static func make(_ spec: ServiceSpec, in manifest: Manifest, layout: KubernetesLayout) -> KubernetesObject {
        KubernetesObject(
            apiVersion: "v1", kind: "ConfigMap", name: layout.configMap(spec.name), namespace: layout.namespace,
            labels: layout.labels(spec.name), [("data", .strings(environment(spec, in: manifest, layout: layout)))])
    }
}
