/// Why a manifest cannot be exported as Kubernetes objects.
public typealias KubernetesExportError = ExportError
