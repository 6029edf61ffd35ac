import VerticalsManifest

/// A vertical's ServiceAccount: an identity of its own for its pods, with no API token
/// mounted (a vertical never calls the Kubernetes API).
enum ServiceAccountObject {
    /// The object.
    static func make(_ spec: ServiceSpec, layout: KubernetesLayout) -> KubernetesObject {
        KubernetesObject(
            apiVersion: "v1", kind: "ServiceAccount", name: spec.name, namespace: layout.namespace,
            labels: layout.labels(spec.name), [("automountServiceAccountToken", false)])
    }
}
