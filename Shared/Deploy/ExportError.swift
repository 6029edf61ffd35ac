import VerticalsWire

/// Why a manifest cannot be exported for another service manager (systemd units, Kubernetes
/// objects); each names the service and what to change.
///
/// Compare ``code`` with the static members of ``Code`` (new codes may be added); the service is
/// also the detail `service`.
public struct ExportError: CodedError {
    /// What kind of problem it is.
    public typealias Code = ErrorKind<ExportError>

    /// What kind of problem it is.
    public var code: Code
    /// The service at fault.
    public var service: String
    /// What is wrong and what to do.
    public var message: String

    /// An error of `code` about `service`.
    public init(_ code: Code, service: String, _ message: String) {
        self.code = code
        self.service = service
        self.message = message
    }

    /// The service at fault, as the detail `service`.
    public var details: [ErrorDetail] { [ErrorDetail("service", service)] }

    /// The message, after the service it is about: `services.ledger: …`.
    public var description: String { "services.\(service): \(message)" }
}

extension ErrorKind where Domain == ExportError {
    /// A value cannot be written into the exported files' syntax (a unit's, a Containerfile's).
    public static var unwritable: Self { Self("unwritable") }
    /// The manifest says something the target cannot (a host name where an address is needed,
    /// a program not in the image, a caller with no endpoint to reach).
    public static var unsupported: Self { Self("unsupported") }
    /// A name the export would make is taken or too long (a user, a socket path, a policy).
    public static var nameTaken: Self { Self("nameTaken") }
    /// The manifest sets what the export sets itself.
    public static var reserved: Self { Self("reserved") }
    /// Services are placed on hosts in a way this export cannot follow.
    public static var placement: Self { Self("placement") }
}

/// Why a manifest cannot be exported as systemd units (the name 0.1.0 published).
public typealias SystemdExportError = ExportError
