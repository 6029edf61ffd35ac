/// Why a URL cannot be an ``OTLPEndpoint``; the message names the URL.
///
/// Compare ``code`` with the static members of ``Code``; new codes may be added.
public struct OTLPEndpointError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the URL.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// Not an `http://` URL (`https://` included: the collector sits beside the daemon).
        public static let scheme = Code("scheme")
        /// A port that is not a number from 0 to 65535.
        public static let port = Code("port")
        /// No host before the port or path.
        public static let host = Code("host")

        public var description: String { name }
    }

    /// What is wrong.
    public let code: Code
    /// What is wrong, naming the URL.
    public let message: String

    /// An error of `code` saying `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

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

    public var description: String { message }
}
