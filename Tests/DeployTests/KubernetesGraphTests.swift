import Testing
import VerticalsServiceKit
import VerticalsDeploy
import VerticalsDeployTesting
import VerticalsSupervisor

/// What Kubernetes' schemas cannot see, checked over the exported objects (the tree that is
/// written; KubernetesValidateTests proves the written text reads back as that tree): each
/// Service selects exactly one workload and its port exists; the NetworkPolicy graph is the
/// `depends_on` graph exactly, DNS included; stateful verticals have one replica; the grace
/// period covers preStop and the drain; every command and probe names a program the image holds.
@Suite struct KubernetesGraphTests {
    /// Case 0: the tests' suite (``DeployFixture/suitePath``); case 1: ``KubernetesFixture/variedManifest``.
    static func manifest(_ index: Int) throws -> Manifest {
        index == 0
            ? try KubernetesFixture.suiteManifest() : try KubernetesFixture.manifest(KubernetesFixture.variedManifest)
    }

    static func export(_ index: Int) throws -> (Manifest, [KubernetesObject], [String: String]) {
        let manifest = try manifest(index)
        let objects = KubernetesFixture.all(try KubernetesExport.objects(for: manifest))
        return (manifest, objects, try KubernetesExport.files(for: manifest))
    }

    static func workloads(_ objects: [KubernetesObject]) -> [KubernetesObject] {
        KubernetesPolicyGraph.workloads(objects)
    }

    static func container(_ workload: KubernetesObject) -> YAMLNode? {
        KubernetesPolicyGraph.container(workload)
    }

    @Test(arguments: 0..<2)
    func eachService_selectsExactlyOneWorkload_whosePortItNames(index: Int) throws {
        let (manifest, objects, _) = try Self.export(index)
        let services = objects.filter { $0.kind == "Service" }
        #expect(services.map(\.name).sorted() == manifest.services.map(\.name).sorted())
        for service in services {
            let selector = try #require(service.node[path: "spec", "selector"]?.stringMap)
            #expect(!selector.isEmpty, "Service \(service.name) selects every pod")
            let selected = Self.workloads(objects).filter { workload in
                let labels = workload.node[path: "spec", "template", "metadata", "labels"]?.stringMap ?? [:]
                return selector.allSatisfy { labels[$0.key] == $0.value }
            }
            #expect(selected.map(\.name) == [service.name], "Service \(service.name) selects \(selected.map(\.name))")
            let port = try #require(service.node[path: "spec", "ports"]?.elements.first)
            let target = try #require(port["targetPort"]?.string)
            let containerPorts = selected.first.flatMap { Self.container($0)?["ports"]?.elements } ?? []
            #expect(
                containerPorts.contains { $0["name"]?.string == target && $0["protocol"]?.string == "TCP" },
                "Service \(service.name)'s targetPort \(target) is no port of its pods")
            // The workload's own selector picks its template's pods.
            for workload in selected {
                let own = workload.node[path: "spec", "selector", "matchLabels"]?.stringMap ?? [:]
                let labels = workload.node[path: "spec", "template", "metadata", "labels"]?.stringMap ?? [:]
                #expect(!own.isEmpty && own.allSatisfy { labels[$0.key] == $0.value })
            }
        }
    }

    @Test(arguments: 0..<2)
    func networkPolicyGraph_isTheDependsOnGraph_exactly_withDNS(index: Int) throws {
        let (manifest, objects, _) = try Self.export(index)
        let declared = Set(manifest.services.flatMap { spec in spec.dependsOn.map { [spec.name, $0] } })
        let names = Set(manifest.services.map(\.name))
        let graph = KubernetesPolicyGraph(objects)
        #expect(graph.strays.isEmpty, "\(graph.strays)")
        #expect(graph.egress == declared, "egress edges differ from depends_on")
        #expect(graph.ingress == declared, "ingress edges differ from depends_on")
        #expect(graph.dns == names, "every vertical, and only through its own policy, reaches DNS")
        #expect(graph.operatorIngress == names)
        let deny = try #require(objects.first { $0.kind == "NetworkPolicy" && $0.name == "default-deny" })
        #expect(deny.node[path: "spec", "podSelector"] == .map([]))
        #expect(deny.node[path: "spec", "policyTypes"] == .list(["Ingress", "Egress"]))
        #expect(deny.node[path: "spec", "ingress"] == nil && deny.node[path: "spec", "egress"] == nil)
    }

    @Test func anUndeclaredEdge_wouldBeSeen() throws {
        // The check above is not vacuous: the tests' suite's graph less one edge differs.
        let manifest = try KubernetesFixture.suiteManifest()
        var pruned = manifest
        let index = try #require(pruned.services.firstIndex { $0.name == "bookings" })
        pruned.services[index].dependsOn.removeAll { $0 == "mailer" }
        let graph = KubernetesPolicyGraph(KubernetesFixture.all(try KubernetesExport.objects(for: pruned)))
        let declared = Set(manifest.services.flatMap { spec in spec.dependsOn.map { [spec.name, $0] } })
        #expect(graph.egress != declared && !graph.egress.contains(["bookings", "mailer"]))
        #expect(!graph.ingress.contains(["bookings", "mailer"]))
    }

    @Test(arguments: 0..<2)
    func statefulVerticals_haveOneReplicaAndAClaim_statelessOnesAreDeployments(index: Int) throws {
        let (manifest, objects, _) = try Self.export(index)
        for spec in manifest.services {
            let workload = try #require(Self.workloads(objects).first { $0.name == spec.name })
            #expect(workload.kind == (spec.store ? "StatefulSet" : "Deployment"), "\(spec.name)")
            #expect(workload.node[path: "spec", "replicas"]?.int == 1)
            if spec.store {
                let claims = workload.node[path: "spec", "volumeClaimTemplates"]?.elements ?? []
                #expect(claims.count == 1 && claims.first?[path: "spec", "accessModes"] == .list(["ReadWriteOncePod"]))
                let mounts = Self.container(workload)?["volumeMounts"]?.elements ?? []
                #expect(mounts.contains { $0["name"]?.string == claims.first?[path: "metadata", "name"]?.string })
            }
        }
        #expect(Self.workloads(objects).count == manifest.services.count)
    }

    @Test(arguments: 0..<2)
    func gracePeriod_coversPreStopAndTheDrain(index: Int) throws {
        let (manifest, objects, _) = try Self.export(index)
        for workload in Self.workloads(objects) {
            let pod = try #require(workload.node[path: "spec", "template", "spec"])
            let grace = try #require(pod["terminationGracePeriodSeconds"]?.int)
            let preStop = try #require(Self.container(workload)?[path: "lifecycle", "preStop", "sleep", "seconds"]?.int)
            let configMap = try #require(objects.first { $0.kind == "ConfigMap" && $0.name == "\(workload.name)-env" })
            let drainText = configMap.node[path: "data", "VERTICALS_DRAIN_SECONDS"]?.string
            let drain =
                drainText.flatMap(Double.init) ?? Double(HostConfiguration.defaultDrainTimeout.components.seconds)
            let stop = try #require(manifest[workload.name]).stopTimeout.components.seconds
            #expect(preStop >= 1)
            #expect(
                Double(grace) >= Double(preStop) + drain, "\(workload.name): grace \(grace) < \(preStop) + \(drain)")
            #expect(Int64(grace) >= Int64(preStop) + stop, "\(workload.name): grace below preStop + stop_timeout")
        }
        // The varied manifest's 30 s drain and 45 s stop_timeout move its grace.
        if index == 1 {
            let grace = Self.workloads(objects).first { $0.name == "price-list" }?
                .node[path: "spec", "template", "spec", "terminationGracePeriodSeconds"]?.int
            #expect(grace == 5 + 45)
        }
    }

    @Test(arguments: 0..<2)
    func everyCommandAndProbe_namesAProgramTheImageHolds(index: Int) throws {
        let (manifest, objects, files) = try Self.export(index)
        let programs = KubernetesPolicyGraph.imagePrograms(try #require(files["Containerfile"]))
        #expect(programs.contains("/usr/local/bin/svc-supervisor"), "for kubectl exec … svc-supervisor call")
        var named = 0
        for workload in Self.workloads(objects) {
            let container = try #require(Self.container(workload))
            var commands = [container["command"]?.elements ?? []]
            for probe in ["startupProbe", "readinessProbe", "livenessProbe"] {
                let command = container[path: probe, "exec", "command"]?.elements ?? []
                #expect(command.last == "--probe", "\(workload.name) \(probe)")
                commands.append(command)
            }
            for command in commands {
                let program = try #require(command.first?.string, "\(workload.name): an empty command")
                #expect(programs.contains(program), "\(workload.name) runs \(program), which the image lacks")
                named += 1
            }
        }
        #expect(named == manifest.services.count * 4)
    }

    @Test(arguments: 0..<2)
    func eachDependency_isFoundAtItsService(index: Int) throws {
        let (manifest, objects, _) = try Self.export(index)
        let layout = KubernetesLayout()
        for spec in manifest.services {
            let data = try #require(
                objects.first { $0.kind == "ConfigMap" && $0.name == "\(spec.name)-env" }?.node["data"]?.stringMap)
            #expect(data["VERTICALS_LISTEN"] == "tcp:0.0.0.0:\(layout.port)")
            #expect(data[KubernetesLayout.endpointVariable(spec.name)] == "tcp:127.0.0.1:\(layout.port)")
            let endpoints = data.filter {
                $0.key.hasPrefix("VERTICALS_ENDPOINT_") && $0.key != KubernetesLayout.endpointVariable(spec.name)
            }
            #expect(Set(endpoints.keys) == Set(spec.dependsOn.map(KubernetesLayout.endpointVariable)))
            for dependency in spec.dependsOn {
                let service = objects.first { $0.kind == "Service" && $0.name == dependency }
                let port = service?.node[path: "spec", "ports"]?.elements.first?["port"]?.int
                #expect(data[KubernetesLayout.endpointVariable(dependency)] == "tcp:\(dependency):\(port ?? -1)")
            }
            for (key, value) in spec.environment { #expect(data[key] == value) }
        }
        #expect(KubernetesLayout.endpointVariable("price-list") == "VERTICALS_ENDPOINT_PRICE_LIST")
    }
}
