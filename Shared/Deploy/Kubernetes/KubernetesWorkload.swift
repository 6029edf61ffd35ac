import VerticalsManifest

/// A vertical's workload: a StatefulSet of one replica with a volume claim for its store (one
/// writer per store: the StatefulSet starts the replacement pod only once the old one has
/// ended, and a `ReadWriteOncePod` volume lets no second pod mount it), or a Deployment for a
/// vertical with `store = false`.
///
/// | manifest | pod |
/// |---|---|
/// | `executable`, `args` | `command` (a bare name is `/usr/local/bin/<name>` in the image) |
/// | `env` | `envFrom` its ConfigMap (``ConfigMapObject``) |
/// | `liveness` | `livenessProbe` `svc-NAME --probe` (`daemon.health`); defaults when unset |
/// | `ready_timeout` | `startupProbe` failing after that long |
/// | `stop_timeout` | `terminationGracePeriodSeconds` (``KubernetesTiming``) |
/// | `limits.memory`, `limits.cpu` | `resources` limits and requests |
/// | `replica` | init containers `restore` and `litestream`, a native sidecar (``LitestreamSidecar``) |
enum KubernetesWorkload {
    /// A writable folder for the daemon's sockets and temporary files (the root file system is read-only).
    static let runDirectory = "/run/verticals"

    /// The StatefulSet or Deployment.
    static func make(_ spec: ServiceSpec, layout: KubernetesLayout) -> KubernetesObject {
        let labels = layout.labels(spec.name)
        let selector: YAMLNode = .map([("matchLabels", .strings([KubernetesLayout.nameLabel: spec.name]))])
        let template: YAMLNode = .map([
            ("metadata", .map([("labels", .strings(labels))])),
            ("spec", podSpec(spec, layout: layout)),
        ])
        if spec.store {
            return KubernetesObject(
                apiVersion: "apps/v1", kind: "StatefulSet", name: spec.name, namespace: layout.namespace,
                labels: labels,
                [
                    (
                        "spec",
                        .map([
                            ("serviceName", .string(spec.name)),
                            ("replicas", 1),
                            ("podManagementPolicy", "OrderedReady"),
                            ("updateStrategy", .map([("type", "RollingUpdate")])),
                            ("selector", selector),
                            ("template", template),
                            ("volumeClaimTemplates", .list([volumeClaim(spec, layout: layout)])),
                        ])
                    )
                ])
        }
        return KubernetesObject(
            apiVersion: "apps/v1", kind: "Deployment", name: spec.name, namespace: layout.namespace, labels: labels,
            [
                (
                    "spec",
                    .map([
                        ("replicas", 1),
                        (
                            "strategy",
                            .map([
                                ("type", "RollingUpdate"),
                                ("rollingUpdate", .map([("maxSurge", 1), ("maxUnavailable", 0)])),
                            ])
                        ),
                        ("selector", selector),
                        ("template", template),
                    ])
                )
            ])
    }

    /// The claim of a stateful vertical's store.
    static func volumeClaim(_ spec: ServiceSpec, layout: KubernetesLayout) -> YAMLNode {
        .map([
            ("metadata", .map([("name", "state"), ("labels", .strings(layout.labels(spec.name)))])),
            (
                "spec",
                .map([
                    ("accessModes", .list(["ReadWriteOncePod"])),
                    ("resources", .map([("requests", .map([("storage", .string(layout.storeSize))]))])),
                ])
            ),
        ])
    }

    /// The pod: one container, the ServiceAccount, the strict security context and the volumes.
    static func podSpec(_ spec: ServiceSpec, layout: KubernetesLayout) -> YAMLNode {
        var volumes: [YAMLNode] = [
            .map([("name", "run"), ("emptyDir", .map([("medium", "Memory"), ("sizeLimit", "16Mi")]))]),
            .map([("name", "tmp"), ("emptyDir", .map([("sizeLimit", "64Mi")]))]),
            .map([
                ("name", "tls"),
                ("secret", .map([("secretName", .string(layout.tlsSecret(spec.name))), ("defaultMode", 0o440)])),
            ]),
        ]
        if !spec.store { volumes.append(.map([("name", "state"), ("emptyDir", .map([("sizeLimit", "64Mi")]))])) }
        var initContainers: [(String, YAMLNode)] = []
        if let replica = spec.replica?.forService(spec.name) {
            volumes += LitestreamSidecar.volumes(spec)
            initContainers = [
                ("initContainers", .list(LitestreamSidecar.initContainers(spec, replica: replica, layout: layout)))
            ]
        }
        return .map(
            [
                ("serviceAccountName", .string(spec.name)),
                ("automountServiceAccountToken", false),
                ("enableServiceLinks", false),
                ("terminationGracePeriodSeconds", .int(KubernetesTiming.gracePeriodSeconds(spec, layout: layout))),
                (
                    "securityContext",
                    .map([
                        ("runAsNonRoot", true),
                        ("runAsUser", .int(layout.userID)),
                        ("runAsGroup", .int(layout.userID)),
                        ("fsGroup", .int(layout.userID)),
                        ("seccompProfile", .map([("type", "RuntimeDefault")])),
                    ])
                ),
            ] + initContainers + [
                ("containers", .list([container(spec, layout: layout)])),
                ("volumes", .list(volumes)),
            ])
    }

    /// The daemon's container.
    static func container(_ spec: ServiceSpec, layout: KubernetesLayout) -> YAMLNode {
        var fields: [(String, YAMLNode)] = [
            ("name", .string(spec.name)),
            ("image", .string(layout.image)),
            ("imagePullPolicy", "IfNotPresent"),
            // The kubelet expands `$(NAME)` in a command and makes `$$` one `$`: every `$` doubled, it
            // runs the manifest's words as they are.
            ("command", .list(([spec.executable] + spec.arguments).map { .string($0.replacing("$", with: "$$")) })),
            (
                "ports",
                .list([
                    .map([
                        ("name", .string(layout.portName)), ("containerPort", .int(layout.port)), ("protocol", "TCP"),
                    ])
                ])
            ),
            environment(spec, layout: layout),
        ]
        if let resources = resources(spec.limits) { fields.append(("resources", resources)) }
        let probe = probeCommand(spec)
        let timeout = KubernetesTiming.probeTimeoutSeconds(spec)
        fields.append(
            (
                "startupProbe",
                self.probe(
                    probe, period: 1, timeout: timeout, failures: KubernetesTiming.wholeSeconds(spec.readyTimeout))
            ))
        fields.append(("readinessProbe", self.probe(probe, period: 5, timeout: timeout, failures: 1)))
        let liveness = spec.liveness ?? KubernetesWorkload.defaultLiveness
        fields.append(
            (
                "livenessProbe",
                self.probe(
                    probe, period: KubernetesTiming.wholeSeconds(liveness.interval), timeout: timeout,
                    failures: max(1, liveness.failures))
            ))
        fields.append(
            ("lifecycle", .map([("preStop", .map([("sleep", .map([("seconds", .int(layout.preStopSeconds))]))]))])))
        fields.append(("securityContext", containerSecurityContext))
        let mounts: [YAMLNode] = [
            .map([("name", "run"), ("mountPath", .string(runDirectory))]),
            .map([("name", "tmp"), ("mountPath", "/tmp")]),
            .map([("name", "tls"), ("mountPath", .string(layout.tlsDirectory)), ("readOnly", true)]),
            .map([("name", "state"), ("mountPath", .string("\(layout.stateRoot)/\(spec.name)"))]),
        ]
        fields.append(("volumeMounts", .list(mounts)))
        return .map(fields)
    }

    /// The daemon's environment: `envFrom` its ConfigMap (``ConfigMapObject``).
    static func environment(_ spec: ServiceSpec, layout: KubernetesLayout) -> (String, YAMLNode) {
        ("envFrom", .list([.map([("configMapRef", .map([("name", .string(layout.configMap(spec.name)))]))])]))
    }

    /// Every container's security context: no privilege, no capability, a read-only root.
    static let containerSecurityContext: YAMLNode = .map([
        ("runAsNonRoot", true),
        ("readOnlyRootFilesystem", true),
        ("allowPrivilegeEscalation", false),
        ("privileged", false),
        ("capabilities", .map([("drop", .list(["ALL"]))])),
        ("seccompProfile", .map([("type", "RuntimeDefault")])),
    ])

    /// The liveness check when the manifest sets none: svc-supervisor then checks nothing (an
    /// idle suite wakes for no timer), but the kubelet probes readiness every few seconds anyway.
    static let defaultLiveness = LivenessCheck(interval: .seconds(10), timeout: .seconds(2), failures: 3)

    /// `svc-NAME --probe`: the daemon's own program asks the daemon `daemon.health`.
    static func probeCommand(_ spec: ServiceSpec) -> [String] {
        [spec.executable, "--probe"]
    }

    private static func probe(_ command: [String], period: Int, timeout: Int, failures: Int) -> YAMLNode {
        .map([
            ("exec", .map([("command", .list(command.map { .string($0) }))])),
            ("periodSeconds", .int(period)),
            ("timeoutSeconds", .int(timeout)),
            ("failureThreshold", .int(failures)),
        ])
    }

    /// `limits.memory` and `limits.cpu` as requests and limits alike (a Guaranteed pod when both
    /// are set); nil when neither is.
    static func resources(_ limits: ResourceLimits) -> YAMLNode? {
        var values: [(String, YAMLNode)] = []
        if let percent = limits.cpuPercent { values.append(("cpu", .string("\(percent * 10)m"))) }
        if let bytes = limits.memoryBytes { values.append(("memory", .string(quantity(bytes)))) }
        guard !values.isEmpty else { return nil }
        return .map([("limits", .map(values)), ("requests", .map(values))])
    }

    /// Bytes as a Kubernetes quantity: `256Mi`, `1Gi`, else the plain number.
    static func quantity(_ bytes: Int) -> String {
        for (suffix, unit) in [("Gi", 1 << 30), ("Mi", 1 << 20), ("Ki", 1 << 10)]
        where bytes % unit == 0 && bytes >= unit {
            return "\(bytes / unit)\(suffix)"
        }
        return String(bytes)
    }
}
