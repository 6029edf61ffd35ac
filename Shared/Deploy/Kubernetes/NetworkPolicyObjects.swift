import VerticalsManifest

/// The NetworkPolicies, compiled from `depends_on` (the suite's one graph of who may call whom):
///
/// - `default-deny`: no pod of the namespace receives or sends anything not allowed below;
/// - per vertical `V`, `V`: ingress on its port only from the verticals that declare `V` in
///   `depends_on` and from pods labelled as operators; egress only to the port of each
///   dependency of `V`, and to the cluster's DNS (kube-dns, UDP and TCP 53), and, with a
///   `replica`, to its port for the pod's Litestream (``LitestreamSidecar/egressRule(_:)``);
/// - `operator`: a pod labelled as an operator may reach every vertical, and DNS.
///
/// A NetworkPolicy needs a network plugin that enforces it (Calico, Cilium, …): without one the
/// cluster accepts the objects and enforces nothing (the generated README says so).
enum NetworkPolicyObjects {
    /// The names of the policies besides the per-vertical ones.
    static let defaultDenyName = "default-deny"
    static let operatorName = "operator"

    /// Every policy: default deny, operator, then one per vertical in manifest order.
    static func make(_ manifest: Manifest, layout: KubernetesLayout) -> [KubernetesObject] {
        [defaultDeny(layout: layout), operatorPolicy(manifest, layout: layout)]
            + manifest.services.map { vertical($0, in: manifest, layout: layout) }
    }

    static func defaultDeny(layout: KubernetesLayout) -> KubernetesObject {
        KubernetesObject(
            apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy", name: defaultDenyName,
            namespace: layout.namespace, labels: [KubernetesLayout.partOfLabel: layout.suite],
            [("spec", .map([("podSelector", .map([])), ("policyTypes", .list(["Ingress", "Egress"]))]))])
    }

    static func operatorPolicy(_ manifest: Manifest, layout: KubernetesLayout) -> KubernetesObject {
        KubernetesObject(
            apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy", name: operatorName,
            namespace: layout.namespace, labels: [KubernetesLayout.partOfLabel: layout.suite],
            [
                (
                    "spec",
                    .map([
                        (
                            "podSelector",
                            .map([("matchLabels", .strings([layout.operatorLabelKey: layout.operatorLabelValue]))])
                        ),
                        ("policyTypes", .list(["Egress"])),
                        (
                            "egress",
                            .list(
                                [
                                    .map([
                                        ("to", .list(manifest.services.map { peer($0.name) })), ("ports", port(layout)),
                                    ])
                                ]
                                    + [dnsRule]
                            )
                        ),
                    ])
                )
            ])
    }

    static func vertical(_ spec: ServiceSpec, in manifest: Manifest, layout: KubernetesLayout) -> KubernetesObject {
        let callers = manifest.services.filter { $0.dependsOn.contains(spec.name) }.map(\.name)
        let operatorPeer: YAMLNode = .map([
            ("podSelector", .map([("matchLabels", .strings([layout.operatorLabelKey: layout.operatorLabelValue]))]))
        ])
        var egress: [YAMLNode] = []
        if !spec.dependsOn.isEmpty {
            egress.append(.map([("to", .list(spec.dependsOn.map(peer))), ("ports", port(layout))]))
        }
        egress.append(dnsRule)
        if let rule = spec.replica.flatMap({ LitestreamSidecar.egressRule($0) }) { egress.append(rule) }
        return KubernetesObject(
            apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy", name: spec.name, namespace: layout.namespace,
            labels: layout.labels(spec.name),
            [
                (
                    "spec",
                    .map([
                        ("podSelector", .map([("matchLabels", .strings([KubernetesLayout.nameLabel: spec.name]))])),
                        ("policyTypes", .list(["Ingress", "Egress"])),
                        (
                            "ingress",
                            .list([
                                .map([("from", .list(callers.map(peer) + [operatorPeer])), ("ports", port(layout))])
                            ])
                        ),
                        ("egress", .list(egress)),
                    ])
                )
            ])
    }

    /// The pods of vertical `name`, in the same namespace.
    static func peer(_ name: String) -> YAMLNode {
        .map([("podSelector", .map([("matchLabels", .strings([KubernetesLayout.nameLabel: name]))]))])
    }

    private static func port(_ layout: KubernetesLayout) -> YAMLNode {
        .list([.map([("protocol", "TCP"), ("port", .string(layout.portName))])])
    }

    /// The cluster's DNS: kube-dns pods (CoreDNS keeps the label) in kube-system, UDP and TCP 53.
    static let dnsRule: YAMLNode = .map([
        (
            "to",
            .list([
                .map([
                    (
                        "namespaceSelector",
                        .map([("matchLabels", .strings(["kubernetes.io/metadata.name": "kube-system"]))])
                    ),
                    ("podSelector", .map([("matchLabels", .strings(["k8s-app": "kube-dns"]))])),
                ])
            ])
        ),
        ("ports", .list([.map([("protocol", "UDP"), ("port", 53)]), .map([("protocol", "TCP"), ("port", 53)])])),
    ])
}
