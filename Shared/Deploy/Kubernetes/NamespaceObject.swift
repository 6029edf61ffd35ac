/// The suite's Namespace, labelled so that the pod security admission enforces the
/// `restricted` profile, which every exported pod meets.
enum NamespaceObject {
    /// The object.
    static func make(layout: KubernetesLayout) -> KubernetesObject {
        KubernetesObject(
            apiVersion: "v1", kind: "Namespace", name: layout.namespace, namespace: nil,
            labels: [
                KubernetesLayout.partOfLabel: layout.suite,
                "pod-security.kubernetes.io/enforce": "restricted",
                "pod-security.kubernetes.io/enforce-version": "latest",
            ], [])
    }
}
