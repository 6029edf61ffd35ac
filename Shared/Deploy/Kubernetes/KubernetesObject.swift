/// One Kubernetes object of the export: its kind and name, and its whole content as a
/// ``YAMLNode`` tree, which is what is written and what the tests inspect.
public struct KubernetesObject: Sendable, Equatable {
    /// `kind`, e.g. `StatefulSet`.
    public var kind: String
    /// `metadata.name`.
    public var name: String
    /// The whole object, `apiVersion` first.
    public var node: YAMLNode

    /// An object of `kind` named `name` in `namespace` (nil: cluster-scoped), with `labels`,
    /// then `body`'s keys after `apiVersion`, `kind` and `metadata`.
    init(
        apiVersion: String, kind: String, name: String, namespace: String?, labels: [String: String] = [:],
        _ body: [(String, YAMLNode)]
    ) {
        self.kind = kind
        self.name = name
        var metadata: [(String, YAMLNode)] = [("name", .string(name))]
        if let namespace { metadata.append(("namespace", .string(namespace))) }
        if !labels.isEmpty { metadata.append(("labels", .strings(labels))) }
        node = .map(
            [("apiVersion", .string(apiVersion)), ("kind", .string(kind)), ("metadata", .map(metadata))] + body)
    }
}
