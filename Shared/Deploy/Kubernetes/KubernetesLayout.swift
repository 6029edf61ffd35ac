import VerticalsContract
import VerticalsManifest

/// Where the suite lives on Kubernetes, and how its objects are named: everything
/// ``KubernetesExport`` needs besides the manifest (`--namespace`, `--image`).
///
/// Every vertical runs from one image that holds every daemon under ``binDirectory``; it serves
/// `VERTICALS_LISTEN=tcp:0.0.0.0:<port>` and finds dependency `NAME` at
/// `VERTICALS_ENDPOINT_NAME=tcp:<name>:<port>`, the Service of the same name in the namespace.
///
/// Its names start from the suite's (`Manifest/suiteName`): a product `acme` is exported to
/// namespace `acme`, image `localhost/acme:<version>`, every object `app.kubernetes.io/part-of: acme`.
public struct KubernetesLayout: Sendable, Equatable {
    /// The suite's name (`[suite] name`): the default namespace and image, and every object's `part-of`.
    public var suite: String
    /// The namespace every object is in.
    public var namespace: String
    /// The image of every container (built from the exported `Containerfile`).
    public var image: String
    /// Where the image holds the daemons: bare executable names of the manifest resolve here.
    public var binDirectory = "/usr/local/bin"
    /// The TCP port every vertical serves on, and its Service's port, named ``portName``.
    public var port = 7000
    /// The Service and container port's name.
    public var portName = "verticals"
    /// The unprivileged user and group every container runs as (made by the Containerfile).
    public var userID = 10001
    /// Each stateful vertical's volume is mounted at `<stateRoot>/<name>` (`STATE_DIRECTORY`).
    public var stateRoot = "/var/lib/verticals"
    /// The size each store's volume claims.
    public var storeSize = "1Gi"
    /// Where each pod mounts its TLS Secret (`tls.crt`, `tls.key`, `ca.crt`, as cert-manager writes them).
    public var tlsDirectory = "/etc/verticals/tls"
    /// The label a pod carries to be allowed to call every vertical (an operator's debugging pod).
    public var operatorLabelKey = "verticals.dev/role"
    /// The value of ``operatorLabelKey`` that marks an operator's pod.
    public var operatorLabelValue = "operator"
    /// How long `preStop` waits before the daemon is sent SIGTERM: time for the endpoint's
    /// removal to reach every node's proxy and every caller (kubernetes/kubernetes#43576).
    public var preStopSeconds = 5

    /// The framework's suite: namespace `verticals`, image `localhost/verticals:<suite version>`.
    public init(namespace: String = "verticals", image: String = KubernetesLayout.defaultImage) {
        self.init(suite: SuiteName.default, namespace: namespace, image: image)
    }

    /// The layout of suite `suite` (`[suite] name`): namespace `namespace`, else the suite's name;
    /// image `image`, else ``image(suite:)``.
    public init(suite: String, namespace: String? = nil, image: String? = nil) {
        self.suite = suite
        self.namespace = namespace ?? suite
        self.image = image ?? Self.image(suite: suite)
    }

    /// The image the Containerfile's own instructions tag: `localhost/verticals:<suite version>`.
    public static let defaultImage = image(suite: SuiteName.default)

    /// The image a suite's Containerfile tags unless told otherwise: `localhost/<suite>:<suite version>`.
    public static func image(suite: String) -> String {
        "localhost/\(suite):\(VerticalsVersion.current)"
    }

    /// The label every object carries with the suite's name.
    public static let partOfLabel = "app.kubernetes.io/part-of"

    /// The label that names a vertical's pods, Service selector and NetworkPolicy peers.
    public static let nameLabel = "app.kubernetes.io/name"

    /// The labels of every object of vertical `name`.
    public func labels(_ name: String) -> [String: String] {
        [
            Self.nameLabel: name, Self.partOfLabel: suite,
            "app.kubernetes.io/managed-by": "svc-supervisor",
        ]
    }

    /// `VERTICALS_ENDPOINT_<NAME>`: NAME upper-cased, `-` as `_`.
    public static func endpointVariable(_ name: String) -> String {
        DaemonSettings.endpointPrefix + String(name.uppercased().map { $0 == "-" ? "_" : $0 })
    }

    /// Where a caller in the namespace finds vertical `name`: its Service.
    public func endpoint(_ name: String) -> String { "tcp:\(name):\(port)" }

    /// What a vertical serves: every address of its pod.
    public var listen: String { "tcp:0.0.0.0:\(port)" }

    /// Where a vertical's own `--probe` (and an operator's `kubectl exec … svc-supervisor call`)
    /// finds it from inside its pod: loopback, which no NetworkPolicy filters.
    public var ownEndpoint: String { "tcp:127.0.0.1:\(port)" }

    /// The Secret holding vertical `name`'s TLS certificate (cert-manager `Certificate.spec.secretName`).
    public func tlsSecret(_ name: String) -> String { "\(name)-tls" }

    /// The ConfigMap holding vertical `name`'s environment.
    public func configMap(_ name: String) -> String { "\(name)-env" }
}
