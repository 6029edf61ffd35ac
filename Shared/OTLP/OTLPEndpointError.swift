import VerticalsWire

/// Why a URL cannot be an ``OTLPEndpoint``; the message names the URL.
///
/// Compare ``code`` with the static members of ``Code``; new codes may be added.
public struct OTLPEndpointError: StoredCodedError {
    /// What is wrong with the URL.
    public typealias Code = ErrorKind<OTLPEndpointError>

    /// What is wrong, and the message naming the URL.
    public let storage: CodedErrorStorage<OTLPEndpointError>

    /// The error `storage` describes.
    public init(storage: CodedErrorStorage<OTLPEndpointError>) { self.storage = storage }

    /// `url` is not `http://`.
    public static func scheme(_ url: String) -> OTLPEndpointError {
        OTLPEndpointError(.scheme, "\(url): only http:// is supported (a collector beside the daemon)")
    }

    /// `url`'s port is not a number.
    public static func port(_ url: String) -> OTLPEndpointError {
        OTLPEndpointError(.port, "\(url): the port is not a number")
    }

    /// `url` names no host.
    public static func host(_ url: String) -> OTLPEndpointError {
        OTLPEndpointError(.host, "\(url): no host")
    }
}

extension ErrorKind where Domain == OTLPEndpointError {
    /// Not an `http://` URL (`https://` included: the collector sits beside the daemon).
    public static var scheme: Self { Self("scheme") }
    /// A port that is not a number from 0 to 65535.
    public static var port: Self { Self("port") }
    /// No host before the port or path.
    public static var host: Self { Self("host") }
}
