import Foundation
import Glibc
import Testing
import VerticalsDeploy
import VerticalsDeployTesting
import VerticalsSupervisor
import VerticalsTesting

/// The image, rehearsed without a registry or a cluster: the exported
/// Containerfile's runtime stage built as a root file system, and each exported StatefulSet run
/// from it as a pod would run it, by `scripts/kubernetes-rehearsal.sh`.
///
/// Everything comes from the export: the base (`debootstrap --variant=minbase` of the stage's
/// Debian suite, then the stage's own `RUN`, which installs its packages and makes its user),
/// the programs (its `COPY` lines), each pod's command, probe, ConfigMap, user, volumes and
/// grace period. The programs are this test build's (or `VT_REHEARSAL_BIN`'s, e.g. the release
/// build the Containerfile makes). A debug build loads Swift's runtime from the toolchain, which
/// the Containerfile's `--static-swift-stdlib` links into each program instead: only those
/// libraries are copied in beside the programs, so every other library a daemon maps must come
/// from the stage's packages, and a library the package list lacks fails the daemon's start.
///
/// Proves, per vertical: `--check` passes on the empty claim and again on the store the daemon
/// left; the daemon serves mutual TLS on `VERTICALS_LISTEN` as the securityContext's uid with no
/// capability and no_new_privs, from a read-only root, mapping no library from outside it; its
/// `--probe` answers 0 while it serves and 1 once it stopped on SIGTERM within its grace period;
/// and the probe is admitted as the vertical itself: the same probe with the certificate of a
/// vertical the daemon does not admit is refused, naming that vertical (and where
/// `VERTICALS_ALLOWED_PEERS` is only `operator`, as for records and appointments, the probe that
/// passes can be nobody but the vertical). In clinics' pod, docs/kubernetes.md's `kubectl exec …
/// svc-supervisor call clinics nearest …` answers too.
///
/// Root only, and the first run downloads a Debian base (cached after); skipped with a message
/// without root or without the Debian mirror.
@Suite(.blocking, .serialized, .timeLimit(.minutes(20)))
struct KubernetesRehearsalTests {
    static let script = "\(SuiteDeployFixture.repositoryRoot)/scripts/kubernetes-rehearsal.sh"

    /// The folder of the programs put in the image.
    static var binDirectory: String {
        getenv("VT_REHEARSAL_BIN").map { String(cString: $0) } ?? DaemonProcess.productsDirectory
    }

    /// The test process's tool environment, and the rehearsal's own settings when set.
    static var environment: [String: String] {
        var environment = ToolLookup.toolEnvironment
        for key in ["VT_REHEARSAL_CACHE", "VT_REHEARSAL_MIRROR"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        return environment
    }

    @Test func theImage_asARootFileSystem_checksAndProbesEachVertical_asItsOwnUserAndCertificate() throws {
        guard geteuid() == 0 else {
            print("skipped: the image rehearsal needs root (debootstrap, chroot, namespaces, mounts)")
            return
        }
        let tools = ["unshare", "chroot", "setpriv", "ip", "mount", "wget", "ldd"]
        let missing = tools.filter { ToolLookup.which($0) == nil }
        guard missing.isEmpty, let ldd = ToolLookup.which("ldd") else {
            print("skipped: the image rehearsal needs \(missing.joined(separator: ", "))")
            return
        }
        let manifest = try SuiteDeployFixture.kubernetesManifest()
        let files = try KubernetesExport.files(for: manifest)
        let objects = try KubernetesExport.objects(for: manifest).flatMap(\.objects)
        let stage = ContainerfileRuntimeStage(try #require(files["Containerfile"]))
        let suite = try #require(stage.debianSuite, "the runtime stage's base \(stage.base) is no Debian image")
        let directory = TemporaryDirectory()

        // The base: debootstrap and the stage's RUN, cached by their text.
        try stage.run.write(toFile: directory.file("stage"), atomically: true, encoding: .utf8)
        var started = ContinuousClock.now
        let built = try runCommand(
            "/bin/bash", [Self.script, "base", suite, directory.file("stage")], environment: Self.environment,
            in: directory,
            timeout: .seconds(900))
        if built.status == 3 {
            print("skipped: the image rehearsal cannot reach the Debian mirror: \(built.standardError)")
            return
        }
        try #require(built.status == 0, "\(built.standardError)")
        let base = try #require(built.standardOutput.split(separator: "\n").last.map(String.init))
        print(
            "rehearsal: base \(base) ready in \(started.duration(to: .now)) (\(built.standardError.split(separator: "\n").last ?? ""))"
        )

        let layer = try Self.programLayer(stage, ldd: ldd, in: directory)
        let secrets = try Self.secrets(objects, in: directory)

        var strangers = 0
        for workload in KubernetesPolicyGraph.workloads(objects) {
            let pod = try RehearsalPod(workload, objects: objects)
            #expect(stage.user == "\(pod.runUID):\(pod.runGID)", "the image's USER is the pod's runAsUser:runAsGroup")
            #expect(pod.readOnlyRoot, "\(pod.name): the rehearsal mounts the root read-only, as the export asks")
            let work = directory.file("pod-\(pod.name)")
            mkdir(work, 0o755)
            var mounts: [String] = []
            for (kind, path) in pod.volumes {
                switch kind {
                case .emptyDir: mounts.append("tmpfs:\(path)")
                case .secret(let name, _):
                    let folder = try #require(secrets[name], "no files for Secret \(name)")
                    mounts.append("ro:\(folder):\(path)")
                case .claim:
                    // A fresh claim as the kubelet hands it over with fsGroup: the group's, setgid.
                    let state = directory.file("state-\(pod.name)")
                    mkdir(state, 0o755)
                    chown(state, 0, gid_t(pod.fsGroup))
                    chmod(state, 0o2775)
                    mounts.append("rw:\(state):\(path)")
                }
            }
            // The identity test: the certificate of a vertical this one does not admit.
            let admitted = Set(
                (pod.environment["VERTICALS_ALLOWED_PEERS"] ?? "").split(separator: ",").map(String.init))
            var stranger: [String] = []
            var strangerName: String?
            if !admitted.isEmpty,
                let other = manifest.services.map(\.name).first(where: { $0 != pod.name && !admitted.contains($0) }),
                let folder = secrets["\(other)-tls"]
            {
                let path = "/etc/verticals/\(other)-tls"
                mounts.append("ro:\(folder):\(path)")
                stranger = ["VERTICALS_TLS_CERT=\(path)/tls.crt", "VERTICALS_TLS_KEY=\(path)/tls.key"]
                strangerName = other
                strangers += 1
            }
            // docs/kubernetes.md's `kubectl exec clinics-0 -- svc-supervisor call clinics nearest …`.
            let exec = pod.name == "clinics" ? Self.readmeCall : []
            let spec = try pod.specFile(
                base: base, layers: [layer], work: work, mounts: mounts, strangerEnvironment: stranger, exec: exec,
                readySeconds: max(pod.startupSeconds, 60))
            try spec.write(toFile: "\(work)/spec", atomically: true, encoding: .utf8)

            started = ContinuousClock.now
            let run = try runCommand(
                "/bin/bash", [Self.script, "pod", "\(work)/spec"], environment: Self.environment, in: directory,
                timeout: .seconds(240))
            let transcript = RehearsalTranscript(run.standardOutput)
            #expect(run.status == 0, "\(pod.name): \(run.standardError)\n\(transcript.text)")
            try Self.expectPod(pod, transcript, stranger: strangerName)
            if !exec.isEmpty {
                let call = try #require(transcript["exec"], "\(transcript.text)")
                #expect(call.status == 0, "\(exec.joined(separator: " ")) in the pod: \(call.output)")
            }
            print(Self.summary(pod.name, transcript, took: started.duration(to: .now)))
        }
        #expect(strangers > 0, "some vertical admits not every other, so the identity check ran")
    }

    /// One line for the log: how long the pod took, and what its daemon answered and mapped.
    static func summary(_ name: String, _ transcript: RehearsalTranscript, took: Duration) -> String {
        var line = "rehearsal: \(name) in \(took): ready after \(transcript["ready"]?.words.last ?? "?") ms"
        line += ", stopped in \(transcript["stopped"]?.words.last ?? "?") ms"
        if let refused = transcript["probe-stranger"] {
            line += "; with another's certificate: \(refused.output.split(separator: "\n").last ?? "")"
        }
        if let exec = transcript["exec"] { line += "; kubectl exec … svc-supervisor call: \(exec.status ?? -1)" }
        let libraries = (transcript["libraries"]?.output ?? "").split(separator: "\n").map {
            $0.split(separator: "/").last ?? $0
        }
        return line + "; libraries: " + libraries.joined(separator: " ")
    }

    /// docs/kubernetes.md, "Deploying", step 5, inside clinics' pod.
    static let readmeCall = [
        "/usr/local/bin/svc-supervisor", "call", "clinics", "nearest", #"{"latitude": 51.5, "longitude": -0.12}"#,
    ]

    /// What one pod's transcript must show; `stranger`: the vertical whose certificate the pod's
    /// daemon must refuse.
    static func expectPod(_ pod: RehearsalPod, _ transcript: RehearsalTranscript, stranger: String?) throws {
        let name = pod.name
        let text = transcript.text
        let context = Comment(rawValue: text)
        let before = try #require(transcript["check-before"], context)
        #expect(
            before.status == 0 && before.output.contains("environment valid"),
            "\(name) --check on the empty claim: \(before.output)")
        // A daemon that never served (a library the stage lacks, say) fails once, with the whole story.
        guard transcript["ready"]?.words.first == "yes" else {
            Issue.record("\(name) never answered its probe:\n\(text)")
            return
        }

        // Its credentials, as the securityContext asks: runAsUser/runAsGroup, fsGroup, `drop: [ALL]`, no_new_privs.
        let status = transcript["process"]?.output ?? ""
        let fields = Dictionary(
            status.split(separator: "\n").map { line in
                let parts = line.split(separator: ":", maxSplits: 1)
                return (
                    String(parts[0]),
                    parts.count > 1 ? parts[1].split(whereSeparator: \.isWhitespace).joined(separator: " ") : ""
                )
            }, uniquingKeysWith: { first, _ in first })
        #expect(
            fields["Uid"] == Array(repeating: "\(pod.runUID)", count: 4).joined(separator: " "), "\(name): \(status)")
        #expect(
            fields["Gid"] == Array(repeating: "\(pod.runGID)", count: 4).joined(separator: " "), "\(name): \(status)")
        #expect(fields["Groups"] == "\(pod.fsGroup)", "\(name): \(status)")
        #expect(fields["CapEff"] == "0000000000000000" && fields["CapPrm"] == "0000000000000000", "\(name): \(status)")
        #expect(fields["CapBnd"] == "0000000000000000", "\(name) could regain a capability: \(status)")
        #expect(fields["NoNewPrivs"] == "1", "\(name): \(status)")

        // Every library from the root: the stage's packages, or the Swift runtime a debug build needs.
        let libraries = (transcript["libraries"]?.output ?? "").split(separator: "\n").map(String.init)
        #expect(libraries.contains { $0.contains("libuv.so") }, "\(name) maps libuv: \(libraries)")
        #expect(
            !libraries.contains { $0.hasPrefix("outside:") },
            "\(name) maps a library from outside the image: \(libraries)")

        let healthy = try #require(transcript["probe-healthy"], context)
        #expect(healthy.status == 0 && healthy.output == "svc-\(name) --probe: healthy", "\(name): \(healthy.output)")
        // The daemon admits the probe by the name its certificate carries: the same probe with the
        // certificate of a vertical it does not admit is refused, naming that vertical.
        if let stranger {
            let refused = try #require(transcript["probe-stranger"], context)
            #expect(refused.status == 1, "\(name) admitted \(stranger)'s certificate: \(refused.output)")
            #expect(
                refused.output.contains("permissionDenied: verticals://\(stranger) may not call \(name)"),
                "\(name): \(refused.output)")
        }
        #expect(
            transcript["stopped"]?.status == 0,
            "\(name) ends 0 on SIGTERM within its grace period\n\(transcript["daemon-log"]?.output ?? "")")
        let stopped = try #require(transcript["probe-stopped"], context)
        #expect(stopped.status == 1 && stopped.output.contains("unhealthy"), "\(name): \(stopped.output)")
        let after = try #require(transcript["check-after"], context)
        #expect(
            after.status == 0 && after.output.contains("this vertical's"),
            "\(name) --check on its store: \(after.output)")
        let write = try #require(transcript["root-write"], context)
        #expect(
            write.status != 0 && write.output.contains("Read-only file system"),
            "\(name)'s root is writable: \(write.output)")
    }

    /// The layer of the stage's `COPY` lines: each program at its place, and, for a program
    /// linked to Swift's runtime dynamically (a debug build), the runtime's libraries at the
    /// toolchain's path, where the program looks for them: what a release build carries inside.
    static func programLayer(_ stage: ContainerfileRuntimeStage, ldd: String, in directory: TemporaryDirectory) throws
        -> String
    {
        let layer = directory.file("layer")
        mkdir(layer, 0o755)
        var swiftRuntime = Set<String>()
        try #require(!stage.copies.isEmpty, "the runtime stage copies no program")
        for copy in stage.copies {
            let program = "\(binDirectory)/\(copy.source.split(separator: "/").last ?? "")"
            let installed = try runCommand(
                "/usr/bin/install", ["-D", "-m", "0755", program, layer + copy.destination], in: directory)
            try #require(installed.status == 0, "\(installed.standardError)")
            swiftRuntime.formUnion(
                try LinkedLibraries.of(program, ldd: ldd, in: directory).filter(LinkedLibraries.isSwiftRuntime))
        }
        for library in swiftRuntime.sorted() {
            let installed = try runCommand(
                "/usr/bin/install", ["-D", "-m", "0644", library, layer + library], in: directory)
            try #require(installed.status == 0, "\(installed.standardError)")
        }
        print(
            "rehearsal: programs from \(binDirectory); Swift runtime copied in: \(swiftRuntime.isEmpty ? "none (linked in)" : "\(swiftRuntime.count) libraries")"
        )
        return layer
    }

    /// Each Secret the workloads mount, as `svc-supervisor certs` makes its files and the kubelet
    /// mounts them (owned by root, group fsGroup, `defaultMode`); by Secret name.
    static func secrets(_ objects: [KubernetesObject], in directory: TemporaryDirectory) throws -> [String: String] {
        let certificates = directory.file("certs")
        let namespace = objects.first { $0.kind == "Namespace" }?.name ?? "verticals"
        let minted = try runCommand(
            "svc-supervisor",
            [
                "certs", certificates, "--manifest", "\(SuiteDeployFixture.repositoryRoot)/deploy/suite.toml",
                "--namespace", namespace,
            ],
            in: directory)
        try #require(minted.status == 0, "svc-supervisor certs: \(minted.standardError)")
        var folders: [String: String] = [:]
        for workload in KubernetesPolicyGraph.workloads(objects) {
            let pod = try RehearsalPod(workload, objects: objects)
            for case (.secret(let name, let mode), _) in pod.volumes {
                // cert-manager's Secret <name>-tls holds what `certs` writes to DIR/<name>/.
                let holder = name.hasSuffix("-tls") ? String(name.dropLast(4)) : name
                let folder = directory.file("secret-\(name)")
                mkdir(folder, 0o755)
                for file in ["tls.crt", "tls.key", "ca.crt"] {
                    let copied = try runCommand(
                        "/bin/cp", ["\(certificates)/\(holder)/\(file)", "\(folder)/\(file)"], in: directory)
                    try #require(copied.status == 0, "\(copied.standardError)")
                    chown("\(folder)/\(file)", 0, gid_t(pod.fsGroup))
                    chmod("\(folder)/\(file)", mode_t(mode))
                }
                folders[name] = folder
            }
        }
        return folders
    }
}
