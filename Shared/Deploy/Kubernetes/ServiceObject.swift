import VerticalsManifest

/// A vertical's Service: a stable name (`<name>`, what `VERTICALS_ENDPOINT_<NAME>` points to)
/// and one named TCP port, selecting the vertical's pods by their name label.
enum ServiceObject {
    /// The object.
    static func make(_ spec: ServiceSpec, layout: KubernetesLayout) -> KubernetesObject {
        KubernetesObject(
            apiVersion: "v1", kind: "Service", name: spec.name, namespace: layout.namespace,
            labels: layout.labels(spec.name),
            [
                (
                    "spec",
                    .map([
                        ("type", "ClusterIP"),
                        ("selector", .strings([KubernetesLayout.nameLabel: spec.name])),
                        (
                            "ports",
                            .list([
                                .map([
                                    ("name", .string(layout.portName)), ("protocol", "TCP"),
                                    ("port", .int(layout.port)),
                                    ("targetPort", .string(layout.portName)),
                                ])
                            ])
                        ),
                    ])
                )
            ])
    }
}
