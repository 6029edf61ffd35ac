/// Why a text is not a ``SocketEndpoint``: the text and the problem, with the expected forms
/// in ``description``.
public struct SocketEndpointError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the text.
    public enum Problem: Sendable, Equatable {
        /// Neither `unix:` nor `tcp:`.
        case unknownScheme
        /// `unix:` with no path (or a path with a NUL byte).
        case emptyPath
        /// A Unix socket path over ``SocketEndpoint/maxUnixPathLength`` bytes.
        case pathTooLong
        /// A host that is neither an IP literal nor a valid name; IPv6 must be bracketed.
        case badHost
        /// `tcp:HOST` with no `:PORT`.
        case missingPort
        /// A port that is not a decimal number from 0 to 65535.
        case badPort
    }

    /// The text that did not parse.
    public let text: String
    /// What is wrong with it.
    public let problem: Problem

    /// An error for `text`.
    public init(_ text: String, _ problem: Problem) {
        self.text = text
        self.problem = problem
    }

    /// The problem and the accepted forms, for logs and users.
    public var description: String {
        let what =
            switch problem {
            case .unknownScheme: "it starts with neither unix: nor tcp:"
            case .emptyPath: "unix: names no path"
            case .pathTooLong: "the socket path is over \(SocketEndpoint.maxUnixPathLength) bytes"
            case .badHost: "the host is neither an IP address nor a host name (an IPv6 address goes in brackets)"
            case .missingPort: "it names no port"
            case .badPort: "the port is not a number from 0 to 65535"
            }
        return "not an endpoint: \"\(text)\": \(what); expected unix:PATH, tcp:HOST:PORT or tcp:[IPv6]:PORT"
    }
}
