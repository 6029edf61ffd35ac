import Foundation
import Glibc
import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

extension NamespaceTests {
    /// The Kubernetes export's intent, rehearsed without a cluster: deploy/suite.toml
    /// exported with `svc-supervisor export kubernetes`, each vertical in its own network namespace
    /// ("pod") with its ConfigMap's environment (dependencies by Service name, resolved through
    /// `/etc/netns/<namespace>/hosts`), its volume mounts as folders, certificates from
    /// `svc-supervisor certs`, and nftables rules compiled from the exported NetworkPolicies. The
    /// booking journey passes, and an edge the graph lacks (records → notifications) is dropped.
    @Suite(.blocking, .enabled(if: NetworkLab.nftPath != nil, "no nft command (apt-get install nftables)"))
    struct NamespaceTopologyTests {
        @Test func exportedTopology_runsPerNamespace_journeyPasses_andAnUndeclaredEdgeIsDropped() async throws {
            let directory = TemporaryDirectory()
            let manifest = "\(NewCommandTests.repositoryRoot)/deploy/suite.toml"
            let topology = try ExportedTopology.export(manifest: manifest, in: directory)
            let names = topology.verticals.map(\.name)
            #expect(Set(names) == ["identity", "clinics", "notifications", "records", "appointments"])
            let lab = try NetworkLab(hosts: names + ["operator"])
            var addresses: [String: String] = [:]
            for host in lab.hosts { addresses[host] = lab.address(of: host) }
            try lab.writeHosts(addresses.filter { $0.key != "operator" })
            let certificates = directory.file("certs")
            let minted = try runCommand(
                "svc-supervisor", ["certs", certificates, "--manifest", manifest], in: directory)
            try #require(minted.status == 0, "svc-supervisor certs: \(minted.standardError)")

            for vertical in names {
                try lab.loadRules(on: vertical, topology.ruleset(for: vertical, addresses: addresses))
            }
            try lab.loadRules(on: "operator", topology.operatorRuleset(addresses: addresses))

            var daemons: [DaemonProcess] = []
            defer { for daemon in daemons { daemon.stop() } }
            for vertical in topology.verticals {
                let environment = try Self.podEnvironment(vertical, certificates: certificates, in: directory)
                // Dependencies by Service name, as the ConfigMap gives them; the hosts files resolve them.
                // (Each entry names an operation, `identity.authenticate`: its vertical is before the dot.)
                let dependencies = Set(
                    vertical.environment["VERTICALS_DEPENDS_ON", default: ""].split(separator: ",").map {
                        Callees.service(of: String($0))
                    })
                for dependency in dependencies {
                    #expect(
                        environment["VERTICALS_ENDPOINT_\(dependency.uppercased())"]
                            == "tcp:\(dependency):\(vertical.port)")
                }
                daemons.append(
                    try lab.spawn(
                        on: vertical.name, vertical.program, environment: environment,
                        stderrPath: directory.file("\(vertical.name).log")))
            }
            for vertical in topology.verticals {
                let listening = eventually(timeout: .seconds(60)) {
                    (try? lab.connect(
                        from: "operator", to: addresses[vertical.name]!, port: UInt16(vertical.port),
                        timeout: .seconds(1))) == .connected
                }
                #expect(
                    listening,
                    "\(vertical.name) never listened: \(readFile(directory.file("\(vertical.name).log")) ?? "")")
            }

            // The operator's client, on the operator host, by address with the operator's certificate.
            let loop = try EventLoop(name: "topology-operator")
            defer { loop.shutdown() }
            let operatorHost = lab.namespace(of: "operator")
            try await loop.submit { try NetworkNamespace.enter(operatorHost) }
            var environment = ["VERTICALS_SOCKET_DIR": directory.file("none")]
            for vertical in topology.verticals {
                environment["VERTICALS_ENDPOINT_\(vertical.name.uppercased())"] =
                    "tcp:\(addresses[vertical.name]!):\(vertical.port)"
            }
            for (variable, file) in [
                ("VERTICALS_TLS_CERT", "tls.crt"), ("VERTICALS_TLS_KEY", "tls.key"), ("VERTICALS_TLS_CA", "ca.crt"),
            ] {
                environment[variable] = "\(certificates)/operator/\(file)"
            }
            let client = ServiceClient(
                loop: loop, sockets: SocketDirectory.from(environment: environment), defaultTimeout: .seconds(10))
            defer { client.close() }
            try await BookingLedger.journey(client)

            // Per operation, as the ConfigMaps' VERTICALS_ALLOWED_OPERATIONS say: from records' pod with
            // records' certificate, identity answers authenticate but refuses getUser and grantRole,
            // naming the edge.
            let recordsLoop = try EventLoop(name: "topology-records")
            defer { recordsLoop.shutdown() }
            let recordsHost = lab.namespace(of: "records")
            try await recordsLoop.submit { try NetworkNamespace.enter(recordsHost) }
            var recordsEnvironment = environment
            for (variable, file) in [
                ("VERTICALS_TLS_CERT", "tls.crt"), ("VERTICALS_TLS_KEY", "tls.key"), ("VERTICALS_TLS_CA", "ca.crt"),
            ] {
                recordsEnvironment[variable] = "\(certificates)/records/\(file)"
            }
            let records = ServiceClient(
                loop: recordsLoop, sockets: SocketDirectory.from(environment: recordsEnvironment),
                defaultTimeout: .seconds(10))
            defer { records.close() }
            let unauthenticated = await SupervisedSuite.refusal {
                _ = try await records.call(Identity.authenticate, .init(token: "not-a-token"))
            }
            #expect(
                unauthenticated?.code == .unauthenticated,
                "records → identity.authenticate is declared: \(String(describing: unauthenticated))")
            let getUser = await SupervisedSuite.refusal {
                _ = try await records.call(Identity.getUser, .init(userID: "u_1"))
            }
            #expect(getUser?.detail("edge") == "records → identity.getUser", "\(String(describing: getUser))")
            let grant = await SupervisedSuite.refusal {
                _ = try await records.call(Identity.grantRole, .init(token: "t", email: "a@example.org", role: .admin))
            }
            #expect(grant?.detail("reason") == "operatorOnly", "\(String(describing: grant))")

            // The graph's edges connect; the edge it lacks is dropped (no answer, not even a reset).
            let port = UInt16(topology.verticals.first { $0.name == "notifications" }?.port ?? 0) // every vertical's: 7000
            let connect = { (from: String, to: String, timeout: Duration) in
                try lab.connect(from: from, to: addresses[to]!, port: port, timeout: timeout)
            }
            #expect(try connect("appointments", "notifications", .seconds(5)) == .connected)
            #expect(try connect("records", "clinics", .seconds(5)) == .connected)
            #expect(topology.callees["records"]?.contains("notifications") == false)
            #expect(try connect("records", "notifications", .seconds(2)) == .timedOut)
            #expect(try connect("clinics", "appointments", .seconds(2)) == .timedOut)
        }

        /// `vertical`'s ConfigMap environment with each of its volume mounts made a folder of
        /// `directory` (the TLS Secret's mount: its folder of `svc-supervisor certs`), and Argon2id at
        /// its cheapest for identity (a test's price, as elsewhere).
        static func podEnvironment(
            _ vertical: ExportedTopology.Vertical, certificates: String, in directory: TemporaryDirectory
        ) throws -> [String: String] {
            var folders: [String: String] = [:]
            for (path, volume) in vertical.mounts {
                let folder =
                    volume == "tls" ? "\(certificates)/\(vertical.name)" : directory.file("\(vertical.name)-\(volume)")
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                folders[path] = folder
            }
            var environment = vertical.environment.mapValues { value in
                for (path, folder) in folders where value == path || value.hasPrefix(path + "/") {
                    return folder + value.dropFirst(path.count)
                }
                return value
            }
            environment["IDENTITY_PWHASH_OPSLIMIT"] = "1"
            environment["IDENTITY_PWHASH_MEMLIMIT"] = "8192"
            return environment
        }
    }
}
