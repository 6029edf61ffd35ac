import Foundation
import Testing
import VerticalsDeploy
import VerticalsDeployTesting
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting

/// A vertical with a `replica` gets, before its own container, a `restore` init container (the
/// store back from the replica on an empty volume) and Litestream as a native sidecar; its
/// configuration is a ConfigMap, its credential a Secret, its NetworkPolicy reaches the
/// replica, the image holds Litestream, and every object passes strict validation.
@Suite(.blocking, .serialized, .timeLimit(.minutes(3)))
struct KubernetesReplicaTests {
    static let manifest = """
        [services.ledger]
        executable = "svc-ledger"
        replica = { type = "sftp", host = "10.20.30.40", port = 2222, path = "/r", key_file = "/etc/vt/replica/{name}.key", host_key = "\(SystemdReplicaTests.hostKey)" }

        [services.orders]
        executable = "svc-orders"
        depends_on = ["ledger"]
        replica = { type = "s3", bucket = "stores", endpoint = "https://s3.example.net:9000", credentials_file = "/etc/vt/replica/{name}.s3" }

        [services.catalog]
        executable = "svc-catalog"
        """

    static func statefulSet(_ name: String, in objects: [KubernetesObject]) throws -> YAMLNode {
        try #require(objects.first { $0.kind == "StatefulSet" && $0.name == name }).node
    }

    @Test func replica_restoresThenRunsANativeSidecar_andPassesStrictValidation() throws {
        let directory = TemporaryDirectory()
        let manifest = try KubernetesFixture.manifest(Self.manifest)
        let files = try KubernetesExport.files(for: manifest)
        let objects = KubernetesFixture.all(try KubernetesExport.objects(for: manifest))

        let ledger = try Self.statefulSet("ledger", in: objects)
        let pod = try #require(ledger[path: "spec", "template", "spec"])
        let initContainers = try #require(pod["initContainers"]?.elements)
        #expect(initContainers.map { $0["name"]?.string } == ["restore", "place-replica-copy", "litestream"])
        let store = "/var/lib/verticals/ledger/ledger.sqlite"
        let copy = "/var/lib/verticals/ledger/ledger.from-replica.sqlite"
        #expect(
            initContainers[0]["command"]?.elements.compactMap(\.string) == [
                "/bin/sh", "-c", "test -e \"$$0\" || exec \"$$@\"", store, "/usr/local/bin/litestream", "restore",
                "-config", "/etc/litestream/litestream.yml", "-no-expand-env", "-o", copy, "-if-db-not-exists",
                "-if-replica-exists", store,
            ], "only where no store is, and into a copy beside it, never the store's path")
        #expect(initContainers[0]["restartPolicy"] == nil, "the restore ends before the vertical starts")
        let place = initContainers[1]
        #expect(
            place["command"]?.elements.compactMap(\.string) == ["/usr/local/bin/svc-ledger", "--place-replica-copy"])
        #expect(place[path: "envFrom"]?.elements.first?[path: "configMapRef", "name"]?.string == "ledger-env")
        #expect(place["restartPolicy"] == nil)
        #expect(
            (place["volumeMounts"]?.elements ?? []).compactMap { $0["name"]?.string } == ["tmp", "state"],
            "the vertical's program reads no Litestream configuration nor credential")
        #expect(place[path: "securityContext", "readOnlyRootFilesystem"]?.bool == true)
        #expect(initContainers[2]["restartPolicy"]?.string == "Always", "a native sidecar")
        #expect(
            initContainers[2]["command"]?.elements.compactMap(\.string).prefix(2) == [
                "/usr/local/bin/litestream", "replicate",
            ])
        for container in [initContainers[0], initContainers[2]] {
            let mounts = container["volumeMounts"]?.elements ?? []
            #expect(
                mounts.contains {
                    $0["name"]?.string == "state" && $0["mountPath"]?.string == "/var/lib/verticals/ledger"
                })
            #expect(
                mounts.contains {
                    $0["name"]?.string == "replica-credential"
                        && $0["mountPath"]?.string == "/etc/vt/replica/ledger.key"
                        && $0["subPath"]?.string == "ledger.key"
                })
            #expect(container[path: "securityContext", "readOnlyRootFilesystem"]?.bool == true)
        }
        let volumes = pod["volumes"]?.elements ?? []
        #expect(volumes.contains { $0[path: "configMap", "name"]?.string == "ledger-litestream" })
        #expect(volumes.contains { $0[path: "secret", "secretName"]?.string == "ledger-replica" })

        let configuration = try #require(
            objects.first { $0.kind == "ConfigMap" && $0.name == "ledger-litestream" }?.node[
                path: "data", "litestream.yml"]?
                .string)
        #expect(configuration.contains("path: \"\(store)\""))
        #expect(
            objects.first { $0.kind == "ConfigMap" && $0.name == "ledger-env" }?.node[
                path: "data", "VERTICALS_STORE_REPLICA"]?.string == "litestream")

        let ledgerEgress = try #require(
            objects.first { $0.kind == "NetworkPolicy" && $0.name == "ledger" }?.node[path: "spec", "egress"]?.elements)
        #expect(
            ledgerEgress.contains {
                $0["ports"]?.elements.first?["port"]?.int == 2222
                    && $0["to"]?.elements.first?[path: "ipBlock", "cidr"]?.string == "10.20.30.40/32"
            })
        let ordersEgress = try #require(
            objects.first { $0.kind == "NetworkPolicy" && $0.name == "orders" }?.node[path: "spec", "egress"]?.elements)
        #expect(ordersEgress.contains { $0["ports"]?.elements.first?["port"]?.int == 9000 })
        let orders = try Self.statefulSet("orders", in: objects)
        #expect(
            orders[path: "spec", "template", "spec", "initContainers"]?.elements.first?["env"]?.elements.contains {
                $0["name"]?.string == "AWS_SHARED_CREDENTIALS_FILE"
                    && $0["value"]?.string == "/etc/vt/replica/orders.s3"
            } == true)

        let catalog = try Self.statefulSet("catalog", in: objects)
        #expect(catalog[path: "spec", "template", "spec", "initContainers"] == nil, "no replica, no Litestream")

        let containerfile = try #require(files["Containerfile"])
        #expect(containerfile.contains("\nFROM ${LITESTREAM_IMAGE} AS litestream\n"))
        #expect(
            containerfile.contains("\nCOPY --from=litestream /usr/local/bin/litestream /usr/local/bin/litestream\n"))
        #expect(ContainerfileRuntimeStage(containerfile).packages.contains("ca-certificates"))
        let deps = try String(
            contentsOfFile: "\(DeployFixture.repositoryRoot)/scripts/install-deps.sh", encoding: .utf8)
        let version = try #require(
            deps.split(separator: "\n").first { $0.hasPrefix("litestream_version=") }?.split(separator: "=").last)
        #expect(
            ContainerfileRuntimeStage(containerfile).arguments["LITESTREAM_IMAGE"]?.hasSuffix(":\(version)") == true,
            "the image's Litestream is the release the tests run")
        let suite = try KubernetesExport.files(for: KubernetesFixture.suiteManifest())
        #expect(suite["Containerfile"]?.contains("litestream") == false, "without a replica the image is as it was")

        let out = directory.file("out")
        _ = try GeneratedFolder(path: out).replace(with: files) { _ in false }
        try KubernetesValidator.expectAllPass(
            out, objects: objects.count, root: DeployFixture.repositoryRoot, in: directory)
    }

    @Test func aFolderReplica_isRefused_namingTheServiceAndWhatToDo() throws {
        let manifest = try KubernetesFixture.manifest(
            """
            [services.ledger]
            executable = "svc-ledger"
            replica = { type = "folder", path = "/mnt/replica" }
            """)
        #expect {
            _ = try KubernetesExport.files(for: manifest)
        } throws: { error in
            let error = error as? KubernetesExportError
            return error?.code == .unsupported && error?.service == "ledger"
                && error?.message.contains("sftp or s3") == true
        }
    }
}
