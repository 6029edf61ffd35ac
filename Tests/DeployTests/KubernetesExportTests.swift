import Glibc
import Testing
import VerticalsDeploy
import VerticalsDeployTesting
import VerticalsSupervisor
import VerticalsTesting

/// `export kubernetes`: the objects' content per manifest key, the refusals, the YAML emitter's
/// quoting, and the command (files written only when changed).
@Suite(.blocking) struct KubernetesExportTests {
    static func objects(_ text: String) throws -> [KubernetesObject] {
        KubernetesFixture.all(try KubernetesExport.objects(for: KubernetesFixture.manifest(text)))
    }

    @Test func aVertical_isAStrictPod_withProbesLimitsAndItsPeers() throws {
        let objects = try Self.objects(KubernetesFixture.variedManifest)
        let workload = try #require(objects.first { $0.name == "price-list" && $0.kind == "Deployment" })
        let pod = try #require(workload.node[path: "spec", "template", "spec"])
        let container = try #require(pod["containers"]?.elements.first)

        #expect(container["command"] == .list(["/usr/local/bin/svc-price-list", "--verbose", "yes"]))
        #expect(container[path: "securityContext", "readOnlyRootFilesystem"] == true)
        #expect(container[path: "securityContext", "allowPrivilegeEscalation"] == false)
        #expect(container[path: "securityContext", "capabilities", "drop"] == .list(["ALL"]))
        #expect(container[path: "securityContext", "seccompProfile", "type"] == "RuntimeDefault")
        #expect(pod[path: "securityContext", "runAsNonRoot"] == true)
        #expect(pod["automountServiceAccountToken"] == false && pod["serviceAccountName"] == "price-list")
        #expect(container[path: "resources", "limits"] == .map([("cpu", "1500m"), ("memory", "256Mi")]))
        #expect(container[path: "resources", "requests"] == container[path: "resources", "limits"])
        // liveness = { interval = "7s", timeout = "1500ms", failures = 4 }: the call's 1.5 s + start.
        let liveness = try #require(container["livenessProbe"])
        #expect(liveness["periodSeconds"] == 7 && liveness["failureThreshold"] == 4 && liveness["timeoutSeconds"] == 4)
        #expect(liveness[path: "exec", "command"] == .list(["/usr/local/bin/svc-price-list", "--probe"]))
        // ready_timeout (10 s by default) as a startup probe every second.
        #expect(container[path: "startupProbe", "failureThreshold"] == 10)
        #expect(container[path: "startupProbe", "periodSeconds"] == 1)
        let data = try #require(objects.first { $0.kind == "ConfigMap" && $0.name == "price-list-env" }?.node["data"])
        #expect(data["VERTICALS_PROBE_TIMEOUT_SECONDS"] == "1.5")
        #expect(data["GREETING"] == "on: 1 # not a comment")
        #expect(data["VERTICALS_TLS_CERT"] == "/etc/verticals/tls/tls.crt")
        let volumes = pod["volumes"]?.elements ?? []
        #expect(volumes.contains { $0[path: "secret", "secretName"] == "price-list-tls" })

        let stateful = try #require(objects.first { $0.name == "orders" && $0.kind == "StatefulSet" })
        #expect(stateful.node[path: "spec", "template", "spec", "containers"]?.elements.first?["resources"] == nil)
        // No liveness in the manifest: the export's default (10 s, 3 failures).
        let defaultLiveness = stateful.node[path: "spec", "template", "spec", "containers"]?.elements.first?[
            "livenessProbe"]
        #expect(defaultLiveness?["periodSeconds"] == 10 && defaultLiveness?["failureThreshold"] == 3)
    }

    @Test func namespaceAndImage_areTheOnesAsked() throws {
        let manifest = try KubernetesFixture.manifest(KubernetesFixture.variedManifest)
        let layout = KubernetesLayout(namespace: "shop", image: "registry.example/shop:2.0")
        let objects = KubernetesFixture.all(try KubernetesExport.objects(for: manifest, layout: layout))
        for object in objects where object.kind != "Namespace" {
            #expect(object.node[path: "metadata", "namespace"] == "shop", "\(object.kind) \(object.name)")
        }
        #expect(objects.first?.kind == "Namespace" && objects.first?.name == "shop")
        let images = objects.compactMap {
            $0.node[path: "spec", "template", "spec", "containers"]?.elements.first?["image"]
        }
        #expect(images.count == 3 && images.allSatisfy { $0 == "registry.example/shop:2.0" })
    }

    @Test func aManifestKubernetesCannotRun_isRefused_namingTheServiceAndKey() throws {
        let cases: [(String, String)] = [
            ("[services.a]\nexecutable = \"/opt/a/bin/svc-a\"\n", "not in the image"),
            (
                "[services.a]\nexecutable = \"svc-a\"\nenv = { VERTICALS_LISTEN = \"tcp:0.0.0.0:1\" }\n",
                "env.VERTICALS_LISTEN"
            ),
            (
                "[services.a]\nexecutable = \"svc-a\"\nenv = { VERTICALS_ENDPOINT_B = \"tcp:b:1\" }\n",
                "env.VERTICALS_ENDPOINT_B"
            ),
        ]
        // (`operator` is a role, refused before any export: ManifestTrustTests.)
        for name in ["default-deny"] {
            let manifest = try KubernetesFixture.manifest("[services.\(name)]\nexecutable = \"svc-x\"\n")
            #expect(
                throws: KubernetesExportError(
                    .nameTaken, service: name,
                    "its NetworkPolicy would have the name of the suite's \(name) policy: rename the service")
            ) {
                try KubernetesExport.files(for: manifest)
            }
        }
        for (text, expected) in cases {
            let manifest = try KubernetesFixture.manifest(text)
            #expect(throws: KubernetesExportError.self) { try KubernetesExport.files(for: manifest) }
            do {
                _ = try KubernetesExport.files(for: manifest)
            } catch {
                #expect(error.service == "a" && error.description.contains(expected), "\(error)")
            }
        }
    }

    @Test func storeKey_mustBeABoolean() {
        let (_, problems) = ManifestParser.parse(
            text: "[services.a]\nexecutable = \"svc-a\"\nstore = \"no\"\n", baseDirectory: "/etc/vt",
            binDirectory: "/usr/local/bin", checkExecutables: false)
        #expect(problems.contains { $0.key == "store" && $0.message.contains("boolean") }, "\(problems)")
    }

    @Test func emitter_quotesWhatYAMLWouldReadAsSomethingElse_andLeavesNamesBare() {
        for word in [
            "yes", "No", "ON", "off", "y", "null", "~", "true", "False", "", "1", "1e3", "0x1f", ".inf", "12:30",
            "2026-11-23", "a: b", "#x", "- x", "x\ny", "*star", "&anchor", "!tag", "%p", "{x}", "[x]", "a,b", "@at",
            "`b",
            "'q'", " lead", "trail ", "=", "<<", "tcp:0.0.0.0:7000", "?", "|", ">",
        ] {
            #expect(!YAMLEmitter.isPlain(word), "\(word) must be quoted")
            #expect(YAMLEmitter.scalar(word).hasPrefix("\""))
        }
        for name in [
            "ledger", "apps/v1", "app.kubernetes.io/name", "RuntimeDefault", "/usr/local/bin/vt-testd", "price-list",
        ] {
            #expect(YAMLEmitter.scalar(name) == name)
        }
        #expect(YAMLEmitter.scalar("a\"b\\c\u{7}") == "\"a\\\"b\\\\c\\u0007\"")
        let text = YAMLEmitter.document(
            .map([
                ("a", .list([.map([("b", 1), ("c", .map([("d", "yes")]))]), "e", .list([]), .list(["f"])])),
                ("g", .map([])),
            ]))
        #expect(text == "a:\n  - b: 1\n    c:\n      d: \"yes\"\n  - e\n  - []\n  -\n    - f\ng: {}\n", "\(text)")
    }

    /// `make image` builds the same Containerfile from local bases by passing them as build
    /// arguments, so every `FROM` names an argument, and without `--build-arg` the defaults are the
    /// public images; the build context keeps its build folders out (`.containerignore`).
    @Test func containerfile_takesItsBasesAsBuildArguments_defaultingToThePublicImages() throws {
        let containerfile = try #require(
            try KubernetesExport.files(for: KubernetesFixture.suiteManifest())["Containerfile"])
        let stage = ContainerfileRuntimeStage(containerfile)
        #expect(
            stage.arguments == [
                "BUILD_IMAGE": "docker.io/library/swift:6.3-bookworm",
                "RUNTIME_IMAGE": "docker.io/library/debian:bookworm-slim",
            ])
        let froms = containerfile.split(separator: "\n").filter { $0.hasPrefix("FROM ") }
        #expect(froms == ["FROM ${BUILD_IMAGE} AS build", "FROM ${RUNTIME_IMAGE}"], "\(froms)")
        #expect(stage.base == "docker.io/library/debian:bookworm-slim" && stage.debianSuite == "bookworm")
        #expect(containerfile.contains("libssl-dev"), "the build stage links OpenSSL (CSSL): it needs libssl-dev")

        let ignored = Set(
            (readFile("\(DeployFixture.repositoryRoot)/.containerignore") ?? "").split(separator: "\n").map(String.init)
        )
        for folder in [".build", ".run", ".git"] {
            #expect(ignored.contains(folder), ".containerignore must keep \(folder) out of the image's build context")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func exportCommand_writesTheFolder_thenOnlyWhatChanged_andRefusesABadNamespace() throws {
        let directory = TemporaryDirectory()
        let manifest = DeployFixture.suitePath
        let out = try DeployFixture.expectExportWritesThenOnlyWhatChanged(
            "kubernetes", expected: KubernetesExport.files(for: KubernetesFixture.suiteManifest()), stale: "gone.yaml",
            foreign: "notes.txt", in: directory)

        let bad = try runCommand(
            "svc-supervisor",
            ["export", "kubernetes", "--manifest", manifest, "--namespace", "Not_A_Label", "--out", out],
            in: directory)
        #expect(bad.status == 64 && bad.standardError.contains("--namespace"), "\(bad.status) \(bad.standardError)")
        let broken = directory.file("broken.toml")
        #expect(writeText("[services.a]\nexecutable = \"/opt/svc-a\"\n", to: broken))
        let refused = try runCommand(
            "svc-supervisor", ["export", "kubernetes", "--manifest", broken, "--out", directory.file("none")],
            in: directory)
        #expect(
            refused.status == 65 && refused.standardOutput.contains("services.a: executable"),
            "\(refused.standardOutput)")
        #expect(access(directory.file("none"), F_OK) != 0)
    }
}
