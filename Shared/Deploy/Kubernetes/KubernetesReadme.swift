import VerticalsManifest

/// The export folder's `README.md`: what the files are, what they need, how long a rolling
/// restart leaves a vertical unreachable, and what of the manifest does not map to Kubernetes
/// and what Kubernetes does instead.
enum KubernetesReadme {
    /// The file's name in the export folder.
    static let name = "README.md"

    /// The file's text.
    static func text(_ manifest: Manifest, layout: KubernetesLayout) -> String {
        var out = """
            <!-- \(KubernetesExport.generatedHeader.joined(separator: " ")) -->
            # The suite on Kubernetes

            Every object here comes from the suite's manifest; the repository's docs/kubernetes.md says how
            to build the image, make certificates and apply them. Written for
            Kubernetes \(KubernetesExport.kubernetesVersion) and checked offline with
            `kubernetes-validate --strict -k \(KubernetesExport.kubernetesVersion)` by `make test`.

            **Needs the daemons' TCP endpoints with mutual TLS** (docs/multi-host.md): each daemon serves
            `VERTICALS_LISTEN=\(layout.listen)`, finds each dependency at
            `VERTICALS_ENDPOINT_<NAME>=tcp:<name>:\(layout.port)` (its Service) and speaks mutual TLS with the
            files named by `VERTICALS_TLS_CERT`, `VERTICALS_TLS_KEY` and `VERTICALS_TLS_CA`. A daemon without
            that support binds a Unix socket in its pod instead, and nothing can reach it.

            | file | objects |
            |---|---|
            | `\(KubernetesExport.namespaceFile)` | Namespace `\(layout.namespace)` (pod security `restricted`) |
            | `\(KubernetesExport.networkFile)` | NetworkPolicy `\(NetworkPolicyObjects.defaultDenyName)` (all in and out), NetworkPolicy `\(NetworkPolicyObjects.operatorName)` |

            """
        for spec in manifest.services {
            var kind = spec.store ? "StatefulSet (1 replica, volume `state` of \(layout.storeSize))" : "Deployment"
            var litestream = ""
            if spec.replica != nil {
                litestream = ", ConfigMap `\(LitestreamSidecar.configMapName(spec.name))`"
                kind +=
                    " with init containers `restore`, `place-replica-copy` and `litestream` (a native sidecar), "
                    + "the Secret `\(LitestreamSidecar.secretName(spec.name))` mounted"
            }
            out +=
                "| `\(spec.name).yaml` | ServiceAccount, ConfigMap `\(layout.configMap(spec.name))`" + litestream
                + ", Service, NetworkPolicy, \(kind) |\n"
        }
        out += "| `\(Containerfile.name)` | the image: \(MarkdownSyntax.codeList(Containerfile.programs(manifest))) |\n"
        out += """

            ## Who may call whom

            From `depends_on` only. `\(NetworkPolicyObjects.defaultDenyName)` refuses everything; each vertical's
            policy admits, on its port `\(layout.portName)` (\(layout.port)), the verticals that depend on it and
            pods labelled `\(layout.operatorLabelKey)=\(layout.operatorLabelValue)`, and lets it reach only its
            dependencies and the cluster's DNS (kube-dns, UDP and TCP 53). NetworkPolicies need a network plugin
            that enforces them (Calico, Cilium, …); without one they are accepted and do nothing, and only mutual
            TLS and each vertical's allowed callers remain.

            | vertical | depends on | called by |
            |---|---|---|

            """
        for spec in manifest.services {
            let callers = manifest.services.filter { $0.dependsOn.contains(spec.name) }.map(\.name)
            out += "| \(spec.name) | \(list(spec.dependsOn)) | \(list(callers)) |\n"
        }
        out += """

            ## Certificates

            Each pod mounts the Secret `<name>-tls` (keys `tls.crt`, `tls.key`, `ca.crt`, as cert-manager writes
            them) at `\(layout.tlsDirectory)`. With cert-manager, one `Certificate` per vertical with
            `secretName: <name>-tls`, `uris: ["verticals://<name>"]`, `usages: [server auth, client auth]`, from
            the suite's CA `Issuer` (docs/kubernetes.md says how to make it); cert-manager rotates the files
            in place, and the daemons reload them with no signal. Each ConfigMap's `VERTICALS_ALLOWED_PEERS`
            admits the verticals that declare it in `depends_on` and `operator` (a certificate
            `svc-supervisor certs` mints for an operator's CLI), besides the vertical itself, and its
            `VERTICALS_ALLOWED_OPERATIONS` the operations each of them names in `depends_on`: a vertical
            may call only those, the operator certificate every one, and only it the operator-only ones
            (`daemon.backup`, `daemon.setLogLevel`, and every operation its contract marks `operatorOnly`).
            Without it, `svc-supervisor certs DIR --namespace \(layout.namespace)` and, per vertical,
            `kubectl -n \(layout.namespace) create secret generic <name>-tls --from-file=DIR/<name>/`.

            ## Probes, and who they are

            Startup, readiness and liveness are exec probes: `svc-<name> --probe` calls `daemon.health` on the
            daemon's own endpoint (`VERTICALS_ENDPOINT_<NAME>=\(layout.ownEndpoint)`, loopback, which no
            NetworkPolicy filters) within `VERTICALS_PROBE_TIMEOUT_SECONDS`, and exits 0 when it answers, 1
            otherwise. The probe runs in the vertical's own container, as its user; over mutual TLS it presents
            the vertical's own certificate (the files of its environment), so the daemon sees the vertical
            itself calling, which every vertical admits (over a Unix socket it would be the daemon's own uid).
            In the Verticals repository `make kubernetes-rehearsal` (as root) shows this without a cluster: each
            vertical's pod, run from a root file system built from this Containerfile's runtime stage, answers
            its own probe, and refuses the same probe made with the certificate of a vertical it does not
            admit. Liveness follows the manifest's `liveness` (period = `interval`, failures = `failures`,
            the call's deadline = `timeout`); where the manifest sets none,
            every \(KubernetesTiming.wholeSeconds(KubernetesWorkload.defaultLiveness.interval)) s, \
            \(KubernetesWorkload.defaultLiveness.failures) failures. The startup probe allows the manifest's
            `ready_timeout`.

            ## Stopping and rolling restarts

            On a stop the pod's endpoint is removed while `preStop` sleeps \(layout.preStopSeconds) s: the
            removal reaches every node and caller a moment after the pod is marked terminating
            (kubernetes/kubernetes#43576), and whatever arrives meanwhile is still served. Then SIGTERM: the
            daemon stops accepting, finishes the requests in flight within its drain time, stops its background
            work and closes its store. `terminationGracePeriodSeconds` = preStop + drain + \
            \(KubernetesTiming.wholeSeconds(KubernetesTiming.closeMargin)) s (never less than preStop +
            `stop_timeout`):

            | vertical | workload | drain | grace |
            |---|---|---|---|

            """
        for spec in manifest.services {
            out +=
                "| \(spec.name) | \(spec.store ? "StatefulSet" : "Deployment") | "
                + "\(KubernetesTiming.seconds(KubernetesTiming.drain(spec))) s | "
                + "\(KubernetesTiming.gracePeriodSeconds(spec, layout: layout)) s |\n"
        }
        out += """

            A stateful vertical has one replica, and its replacement starts only after the old pod has ended
            (one writer per SQLite store; the volume is `ReadWriteOncePod`, which only CSI storage classes
            offer: on another, make it `ReadWriteOnce`, which still keeps the volume on one node). So during a rolling restart it is
            unreachable from the moment its endpoint is removed until the new pod is ready: the preStop sleep
            (\(layout.preStopSeconds) s), the drain (milliseconds when requests are short; at most the drain
            time), then the new pod's start: scheduling, attaching the volume (seconds on the same node, longer
            if it must move) and the first successful probe (startup probe every second): about 10 s on a
            warm node by that sum — an estimate, not a measurement (no cluster was at hand).
            No acknowledged request is lost: requests in flight finish, and a caller's retries within its
            deadline reach the new pod. A Deployment (a vertical without a store) surges a new pod first and is
            not unreachable.

            ## What does not map

            | manifest | under svc-supervisor / systemd | on Kubernetes instead |
            |---|---|---|
            | `restart`, `backoff` | restart policy, exponential backoff | the kubelet restarts every container that exits (`restartPolicy: Always`) with its own backoff (10 s doubling to 5 min) |
            | `budget` | failed past N restarts in a window | none: a crashing pod stays in `CrashLoopBackOff`, retried forever; alert on it |
            | `strategy`, `group` (OTP one_for_one, rest_for_one, one_for_all) | dependents restart with their dependency | every pod on its own (one_for_one); callers reconnect and retry |
            | exit 78 (a restart cannot help) | never restarted | restarted like any exit, into `CrashLoopBackOff`; the log says why |
            | `depends_on` start order | dependencies ready first | no order: pods start together, and a caller retries until its dependency is ready |
            | `limits.open_files`, `data`, `core`, `cpu_seconds` (rlimits) | set by vt-exec | none per pod: the container runtime's defaults |
            | `limits.nice`, `limits.cpu_weight` | niceness; the cgroup's CPU weight | none: CPU `requests` weigh pods against each other |
            | `limits.memory`, `limits.cpu` | cgroup of the service | `resources` (requests = limits); without them a pod is BestEffort |
            | `limits.tasks` | pids cgroup of the service | none per container: the kubelet's `podPidsLimit` bounds every pod alike |
            | `readiness = "notify"`, `watchdog` | sd_notify READY=1, WATCHDOG=1 | the startup and readiness probes; liveness over `daemon.health` |
            | `socket` (the socket held across restarts) | callers wait in the backlog | the Service; callers retry while no pod is ready |
            | `log_max_bytes`, `logs` | rotated files | standard error, rotated by the kubelet (`containerLogMaxSize`) |
            | `stop_signal` | the signal | SIGTERM always (the image sets no STOPSIGNAL) |
            | `start = "on-demand"`, `idle_exit` | started at the first call, exit 0 when idle | not exported: every pod starts at once and keeps running (the kubelet would restart an idle exit) |
            | other lifecycle features (`upgrade` with the store's hand-over, backups on a schedule, core dumps) | svc-supervisor | not exported: run `daemon.backup` through `kubectl exec`; a new image rolls out pod by pod |

            """
        return out
    }

    private static func list(_ names: [String]) -> String {
        names.isEmpty ? "—" : names.joined(separator: ", ")
    }
}
