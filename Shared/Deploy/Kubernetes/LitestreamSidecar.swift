import VerticalsContract
import VerticalsManifest

/// A replicated vertical's Litestream in its pod: three init containers of the vertical's image
/// before the vertical's own, each as the pod's user in the vertical's security context.
///
/// | init container | what it does |
/// |---|---|
/// | `restore` | where the store file is missing (a new cluster, a lost volume), `litestream restore -if-replica-exists` into a copy beside it, `NAME.from-replica.sqlite`, never into the store's path; a store there is left as it is, the replica not reached (`test -e` in `/bin/sh`, which the image's Debian base has); a replica that holds no copy yet (a first deploy) restores nothing and the vertical makes a new store |
/// | `place-replica-copy` | `svc-NAME --place-replica-copy`, the vertical's own program with its environment: the copy, written by a less-trusted place (an SFTP host, a bucket), is put in place as the store only once it passed every check of a backup's restore (VerticalsStorage's `SQLiteStore.placeReplicaCopy`); one that fails is kept aside as `NAME.from-replica.refused.sqlite` and no store is made |
/// | `litestream` | `litestream replicate`, a native sidecar (`restartPolicy: Always`): started before the vertical's container, restarted on its own, stopped after it |
///
/// A restore that fails, or a copy that fails a check, fails the pod's start (the kubelet retries
/// it): never a start on that copy, nor on an empty store.
///
/// Its configuration is ``LitestreamConfiguration``'s, in the ConfigMap `<name>-litestream`
/// (``configMap(_:layout:)``), mounted read-only; the replica's credential (an SFTP key, S3's
/// credentials file) comes from the Secret `<name>-replica`, one key named as the file, mounted
/// at the path the manifest gives. The pod's NetworkPolicy lets it reach the replica's port
/// (``egressRule(_:)``). A folder replica is refused: a pod has no other disk of the host's.
enum LitestreamSidecar {
    /// Where the configuration is mounted.
    static let configDirectory = "/etc/litestream"
    /// The configuration's file (the ConfigMap's key).
    static let configFile = "litestream.yml"

    /// The ConfigMap of `name`'s Litestream configuration.
    static func configMapName(_ name: String) -> String { "\(name)-litestream" }
    /// The Secret of `name`'s replica credential.
    static func secretName(_ name: String) -> String { "\(name)-replica" }

    /// The program in the image.
    static func program(_ layout: KubernetesLayout) -> String { "\(layout.binDirectory)/litestream" }

    /// The store's path in the pod: `<stateRoot>/<name>/<name>.sqlite`.
    static func storePath(_ spec: ServiceSpec, layout: KubernetesLayout) -> String {
        "\(layout.stateRoot)/\(spec.name)/\(spec.name).sqlite"
    }

    /// Where the restore writes the copy to check, beside the store: `<name>.from-replica.sqlite`.
    static func copyPath(_ spec: ServiceSpec, layout: KubernetesLayout) -> String {
        "\(layout.stateRoot)/\(spec.name)/\(spec.name).from-replica.sqlite"
    }

    /// The shell that runs the restore only where the store is missing.
    static let shell = "/bin/sh"

    /// Refuses a replica the pod cannot reach: a folder.
    static func check(_ spec: ServiceSpec) throws(KubernetesExportError) {
        guard let replica = spec.replica, case .folder = replica.target else { return }
        throw KubernetesExportError(
            .unsupported, service: spec.name,
            "its replica is a folder, which a pod on Kubernetes has no disk for (its one volume holds the store): "
                + "name an sftp or s3 replica for this export, or export for systemd")
    }

    /// The ConfigMap holding the configuration of `spec`'s own replica.
    static func configMap(_ spec: ServiceSpec, replica: Replica, layout: KubernetesLayout) -> KubernetesObject {
        let configuration = LitestreamConfiguration(storePath: storePath(spec, layout: layout), replica: replica)
        return KubernetesObject(
            apiVersion: "v1", kind: "ConfigMap", name: configMapName(spec.name), namespace: layout.namespace,
            labels: layout.labels(spec.name), [("data", .strings([configFile: configuration.yaml]))])
    }

    /// The pod's volumes for Litestream: its configuration and its credential.
    static func volumes(_ spec: ServiceSpec) -> [YAMLNode] {
        [
            .map([
                ("name", "litestream"),
                ("configMap", .map([("name", .string(configMapName(spec.name))), ("defaultMode", 0o440)])),
            ]),
            .map([
                ("name", "replica-credential"),
                ("secret", .map([("secretName", .string(secretName(spec.name))), ("defaultMode", 0o440)])),
            ]),
        ]
    }

    /// The `restore`, `place-replica-copy` and `litestream` init containers of `spec`'s own replica.
    static func initContainers(_ spec: ServiceSpec, replica: Replica, layout: KubernetesLayout) -> [YAMLNode] {
        let store = storePath(spec, layout: layout)
        let configPath = "\(configDirectory)/\(configFile)"
        let configuration = LitestreamConfiguration(storePath: store, replica: replica)
        let stateMounts: [YAMLNode] = [
            .map([("name", "tmp"), ("mountPath", "/tmp")]),
            .map([("name", "state"), ("mountPath", .string("\(layout.stateRoot)/\(spec.name)"))]),
        ]
        var mounts =
            stateMounts + [
                .map([("name", "litestream"), ("mountPath", .string(configDirectory)), ("readOnly", true)])
            ]
        if let credential = replica.credentialFile {
            let file = Containerfile.baseName(credential)
            mounts.append(
                .map([
                    ("name", "replica-credential"), ("mountPath", .string(credential)), ("subPath", .string(file)),
                    ("readOnly", true),
                ]))
        }
        let environment: [YAMLNode] = configuration.environment.sorted { $0.key < $1.key }.map {
            .map([("name", .string($0.key)), ("value", .string($0.value))])
        }
        func container(_ name: String, _ command: [String], sidecar: Bool) -> YAMLNode {
            var fields: [(String, YAMLNode)] = [
                ("name", .string(name)),
                ("image", .string(layout.image)),
                ("imagePullPolicy", "IfNotPresent"),
                ("command", .list(command.map { .string($0.replacing("$", with: "$$")) })),
            ]
            if sidecar { fields.append(("restartPolicy", "Always")) }
            if !environment.isEmpty { fields.append(("env", .list(environment))) }
            fields.append(("securityContext", KubernetesWorkload.containerSecurityContext))
            fields.append(("volumeMounts", .list(mounts)))
            return .map(fields)
        }
        let restore = LitestreamConfiguration.restoreArguments(
            configPath: configPath, storePath: store, output: copyPath(spec, layout: layout), ifReplicaExists: true,
            ifOutputMissing: true)
        // The vertical's own program, with the vertical's environment (its STATE_DIRECTORY), no
        // Litestream's configuration nor credential.
        let place: YAMLNode = .map([
            ("name", "place-replica-copy"),
            ("image", .string(layout.image)),
            ("imagePullPolicy", "IfNotPresent"),
            (
                "command",
                .list([spec.executable, "--place-replica-copy"].map { .string($0.replacing("$", with: "$$")) })
            ),
            KubernetesWorkload.environment(spec, layout: layout),
            ("securityContext", KubernetesWorkload.containerSecurityContext),
            ("volumeMounts", .list(stateMounts)),
        ])
        return [
            container(
                "restore", [shell, "-c", "test -e \"$0\" || exec \"$@\"", store, program(layout)] + restore,
                sidecar: false),
            place,
            container(
                "litestream", [program(layout)] + LitestreamConfiguration.replicateArguments(configPath: configPath),
                sidecar: true),
        ]
    }

    /// The pod's egress to its replica: the SFTP port, or the S3 endpoint's (443 without one),
    /// at the host's address when the manifest gives one, else at any address (a NetworkPolicy
    /// takes no host names).
    static func egressRule(_ replica: Replica) -> YAMLNode? {
        let host: String
        let port: Int
        switch replica.target {
        case .folder:
            return nil
        case .sftp(let sftp):
            (host, port) = (sftp.host, sftp.port)
        case .s3(let s3):
            (host, port) = endpoint(s3.endpoint)
        }
        let blocks: [String] =
            if isIPv4(host) { ["\(host)/32"] } else if host.contains(":") { ["\(host)/128"] } else {
                ["0.0.0.0/0", "::/0"]
            }
        return .map([
            ("to", .list(blocks.map { .map([("ipBlock", .map([("cidr", .string($0))]))]) })),
            ("ports", .list([.map([("protocol", "TCP"), ("port", .int(port))])])),
        ])
    }

    /// An S3 endpoint URL's host and port (`https://host:port`); AWS's own (no endpoint) is any host, 443.
    static func endpoint(_ url: String?) -> (String, Int) {
        guard let url else { return ("", 443) }
        let secure = !url.hasPrefix("http://")
        var rest = Substring(url)
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        rest = rest.prefix { $0 != "/" }
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            let host = String(rest[rest.index(after: rest.startIndex)..<close])
            let port = rest[rest.index(after: close)...].dropFirst()
            return (host, Int(port) ?? (secure ? 443 : 80))
        }
        let parts = rest.split(separator: ":", maxSplits: 1)
        return (
            String(parts.first ?? ""), parts.count == 2 ? Int(parts[1]) ?? (secure ? 443 : 80) : (secure ? 443 : 80)
        )
    }

    /// Whether `host` is an IPv4 address in dotted-quad form.
    private static func isIPv4(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in UInt8(part).map { _ in !part.isEmpty } ?? false }
    }
}
