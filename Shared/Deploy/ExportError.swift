/// Why a manifest cannot be exported for another service manager (systemd units, Kubernetes
/// objects); each names the service and what to change.
public struct ExportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The service at fault.
    public var service: String
    /// What is wrong and what to do.
    public var message: String

    /// Creates an error about `service`.
    public init(service: String, _ message: String) {
        self.service = service
        self.message = message
    }

    public var description: String { "services.\(service): \(message)" }
}

/// Why a manifest cannot be exported as systemd units (the name 0.1.0 published).
public typealias SystemdExportError = ExportError
