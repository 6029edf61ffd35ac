/// Why a text is not a ``SocketEndpoint``: the text and what is wrong with it, with the expected
/// forms in ``description``.
///
/// Compare ``code`` with the static members of ``Code``; new codes may be added.
public struct SocketEndpointError: CodedError {
    /// What is wrong with the text.
    public typealias Code = ErrorKind<SocketEndpointError>

    /// What is wrong with the text.
    @available(*, deprecated, renamed: "Code")
    public typealias Problem = Code

    /// The text that did not parse.
    public let text: String
    /// What is wrong with it.
    public let code: Code
    /// What is wrong, in words, with the text and the accepted forms.
    public let message: String

    /// What is wrong with the text.
    @available(*, deprecated, renamed: "code")
    public var problem: Code { code }

    /// An error for `text`, wrong as `code` says.
    public init(_ text: String, _ code: Code) {
        self.text = text
        self.code = code
        message =
            "not an endpoint: \"\(text)\": \(Self.explain(code)); expected unix:PATH, tcp:HOST:PORT or tcp:[IPv6]:PORT"
    }

    private static func explain(_ code: Code) -> String {
        switch code {
        case .unknownScheme: "it starts with neither unix: nor tcp:"
        case .emptyPath: "unix: names no path"
        case .pathTooLong: "the socket path is over \(SocketEndpoint.maxUnixPathLength) bytes"
        case .badHost: "the host is neither an IP address nor a host name (an IPv6 address goes in brackets)"
        case .missingPort: "it names no port"
        case .badPort: "the port is not a number from 0 to 65535"
        default: "\(code)"
        }
    }
}

extension ErrorKind where Domain == SocketEndpointError {
    /// Neither `unix:` nor `tcp:`.
    public static var unknownScheme: Self { Self("unknownScheme") }
    /// `unix:` with no path (or a path with a NUL byte).
    public static var emptyPath: Self { Self("emptyPath") }
    /// A Unix socket path over ``SocketEndpoint/maxUnixPathLength`` bytes.
    public static var pathTooLong: Self { Self("pathTooLong") }
    /// A host that is neither an IP literal nor a valid name; IPv6 must be bracketed.
    public static var badHost: Self { Self("badHost") }
    /// `tcp:HOST` with no `:PORT`.
    public static var missingPort: Self { Self("missingPort") }
    /// A port that is not a decimal number from 0 to 65535.
    public static var badPort: Self { Self("badPort") }
}
