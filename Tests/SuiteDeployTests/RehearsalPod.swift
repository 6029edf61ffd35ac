import Foundation
import VerticalsDeploy
import VerticalsDeployTesting
import VerticalsSupervisor

/// One exported workload as `scripts/kubernetes-rehearsal.sh pod` runs it: everything read from
/// the exported objects (the container's command and probe, its ConfigMap, the pod's user and
/// groups, its volumes and grace period), nothing kept beside them.
struct RehearsalPod {
    /// The vertical (the workload's name).
    let name: String
    /// The container's `command`.
    let command: [String]
    /// The readiness probe's exec command (startup and liveness run the same one).
    let probe: [String]
    /// The ConfigMap the container takes its environment from.
    let environment: [String: String]
    /// `runAsUser`, `runAsGroup` and `fsGroup` of the pod's securityContext.
    let runUID: Int, runGID: Int, fsGroup: Int
    /// Whether the container's root file system is read-only (`readOnlyRootFilesystem`).
    let readOnlyRoot: Bool
    /// `terminationGracePeriodSeconds`: how long the kubelet waits after SIGTERM.
    let graceSeconds: Int
    /// The startup probe's budget: `periodSeconds` × `failureThreshold`.
    let startupSeconds: Int
    /// Each volume mount: its volume's kind (`emptyDir`, `secret` with its name and mode, or the
    /// claim) and its path in the container.
    let volumes: [(kind: Volume, path: String)]

    /// What backs a volume mount.
    enum Volume: Equatable {
        case emptyDir
        case secret(name: String, mode: Int)
        case claim
    }

    init(_ workload: KubernetesObject, objects: [KubernetesObject]) throws {
        name = workload.name
        let pod = try Self.require(workload.node[path: "spec", "template", "spec"], "\(name): no pod template")
        let container = try Self.require(pod["containers"]?.elements.first, "\(name): no container")
        command = container["command"]?.elements.compactMap(\.string) ?? []
        probe = container[path: "readinessProbe", "exec", "command"]?.elements.compactMap(\.string) ?? []
        let configMap = try Self.require(
            container["envFrom"]?.elements.first?[path: "configMapRef", "name"]?.string, "\(name): no ConfigMap")
        let data = objects.first { $0.kind == "ConfigMap" && $0.name == configMap }?.node["data"]?.stringMap
        environment = try Self.require(data, "\(name): ConfigMap \(configMap) has no data")
        runUID = try Self.require(pod[path: "securityContext", "runAsUser"]?.int, "\(name): no runAsUser")
        runGID = try Self.require(pod[path: "securityContext", "runAsGroup"]?.int, "\(name): no runAsGroup")
        fsGroup = pod[path: "securityContext", "fsGroup"]?.int ?? runGID
        readOnlyRoot = container[path: "securityContext", "readOnlyRootFilesystem"]?.bool ?? false
        graceSeconds = pod["terminationGracePeriodSeconds"]?.int ?? 30
        startupSeconds =
            (container[path: "startupProbe", "periodSeconds"]?.int ?? 10)
            * (container[path: "startupProbe", "failureThreshold"]?.int ?? 3)
        let claims = Set(
            workload.node[path: "spec", "volumeClaimTemplates"]?.elements.compactMap {
                $0[path: "metadata", "name"]?.string
            } ?? [])
        let podVolumes = pod["volumes"]?.elements ?? []
        volumes = try (container["volumeMounts"]?.elements ?? []).map { mount in
            let volume = try Self.require(mount["name"]?.string, "\(workload.name): a mount without a volume")
            let path = try Self.require(mount["mountPath"]?.string, "\(workload.name): \(volume) has no path")
            if claims.contains(volume) { return (.claim, path) }
            let source = try Self.require(
                podVolumes.first { $0["name"]?.string == volume }, "\(workload.name): no volume \(volume)")
            if source["emptyDir"] != nil { return (.emptyDir, path) }
            if let secret = source[path: "secret", "secretName"]?.string {
                return (.secret(name: secret, mode: source[path: "secret", "defaultMode"]?.int ?? 0o644), path)
            }
            throw FixtureError("\(workload.name): volume \(volume) is of a kind the rehearsal cannot make")
        }
    }

    /// The spec file the script sources: `base` under the image's `layers` (top first), the pod's
    /// scratch folder `work`, `mounts` in the script's words, the environment to add for the
    /// probe with another vertical's certificate (empty: no such probe), and a command to run
    /// in the serving container as `kubectl exec` would (empty: none).
    func specFile(
        base: String, layers: [String], work: String, mounts: [String], strangerEnvironment: [String], exec: [String],
        readySeconds: Int
    ) throws -> String {
        let environmentFile = "\(work)/environment"
        let lines = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        try (lines.joined(separator: "\n") + "\n").write(toFile: environmentFile, atomically: true, encoding: .utf8)
        return """
            BASE=\(Self.quoted(base))
            LAYERS=(\(layers.map(Self.quoted).joined(separator: " ")))
            WORK=\(Self.quoted(work))
            RUN_UID=\(runUID)
            RUN_GID=\(runGID)
            RUN_GROUPS=\(fsGroup)
            COMMAND=(\(command.map(Self.quoted).joined(separator: " ")))
            PROBE=(\(probe.map(Self.quoted).joined(separator: " ")))
            ENV_FILE=\(Self.quoted(environmentFile))
            MOUNTS=(\(mounts.map(Self.quoted).joined(separator: " ")))
            STRANGER_ENV=(\(strangerEnvironment.map(Self.quoted).joined(separator: " ")))
            EXEC=(\(exec.map(Self.quoted).joined(separator: " ")))
            READY_SECONDS=\(readySeconds)
            STOP_SECONDS=\(graceSeconds)

            """
    }

    /// `text` in single quotes for bash.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private static func require<T>(_ value: T?, _ problem: String) throws -> T {
        guard let value else { throw FixtureError(problem) }
        return value
    }
}
