import VerticalsDeploy

/// The graph the exported NetworkPolicies allow, read from both ends, and where each workload
/// runs: what Kubernetes' schemas cannot see, for the tests that compare it with `depends_on`.
public struct KubernetesPolicyGraph: Sendable {
    /// (caller, callee) edges the callers' egress rules allow.
    public var egress: Set<[String]> = []
    /// (caller, callee) edges the callees' ingress rules admit.
    public var ingress: Set<[String]> = []
    /// The verticals whose own policy lets them reach the cluster's DNS.
    public var dns: Set<String> = []
    /// The verticals that admit the operator's pods.
    public var operatorIngress: Set<String> = []
    /// Each rule that is neither an edge, DNS nor the operator, or an edge on another port, in words.
    public var strays: [String] = []

    /// The graph of the NetworkPolicies among `objects`, exported with `layout`.
    public init(_ objects: [KubernetesObject], layout: KubernetesLayout = KubernetesLayout()) {
        for policy in objects where policy.kind == "NetworkPolicy" {
            guard
                let own = policy.node[path: "spec", "podSelector", "matchLabels"]?.stringMap?[
                    KubernetesLayout.nameLabel]
            else { continue }
            for rule in policy.node[path: "spec", "egress"]?.elements ?? [] {
                let ports = rule["ports"]?.elements ?? []
                for peer in rule["to"]?.elements ?? [] {
                    if let callee = peer[path: "podSelector", "matchLabels"]?.stringMap?[KubernetesLayout.nameLabel],
                        peer["namespaceSelector"] == nil
                    {
                        if !ports.contains(where: { $0["port"]?.string == layout.portName }) {
                            strays.append("\(policy.name): the egress to \(callee) is not on port \(layout.portName)")
                        }
                        egress.insert([own, callee])
                    } else if peer[path: "namespaceSelector", "matchLabels"]?.stringMap?["kubernetes.io/metadata.name"]
                        == "kube-system", peer[path: "podSelector", "matchLabels"]?.stringMap?["k8s-app"] == "kube-dns",
                        Set(
                            ports.compactMap { port in
                                port["protocol"]?.string.map { "\($0)/\(port["port"]?.int ?? 0)" }
                            })
                            == ["UDP/53", "TCP/53"]
                    {
                        dns.insert(own)
                    } else {
                        strays.append("\(policy.name): an egress peer that is neither a vertical nor DNS: \(peer)")
                    }
                }
            }
            for rule in policy.node[path: "spec", "ingress"]?.elements ?? [] {
                for peer in rule["from"]?.elements ?? [] {
                    let labels = peer[path: "podSelector", "matchLabels"]?.stringMap ?? [:]
                    if let caller = labels[KubernetesLayout.nameLabel], labels.count == 1 {
                        ingress.insert([caller, own])
                    } else if labels == [layout.operatorLabelKey: layout.operatorLabelValue] {
                        operatorIngress.insert(own)
                    } else {
                        strays.append(
                            "\(policy.name): an ingress peer that is neither a vertical nor the operator: \(peer)")
                    }
                }
            }
        }
    }

    /// The StatefulSets and Deployments among `objects`.
    public static func workloads(_ objects: [KubernetesObject]) -> [KubernetesObject] {
        objects.filter { $0.kind == "StatefulSet" || $0.kind == "Deployment" }
    }

    /// The first container of `workload`'s pod template.
    public static func container(_ workload: KubernetesObject) -> YAMLNode? {
        workload.node[path: "spec", "template", "spec", "containers"]?.elements.first
    }

    /// The programs the Containerfile copies into the image, by their path there.
    public static func imagePrograms(_ containerfile: String) -> Set<String> {
        Set(ContainerfileRuntimeStage(containerfile).copies.map(\.destination))
    }
}
