/// Where an OTLP/HTTP exporter posts: host, port and path of an `http://` URL.
public struct OTLPEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// Why a URL cannot be an endpoint.
    @available(*, deprecated, renamed: "OTLPEndpointError")
    public typealias Problem = OTLPEndpointError

    /// The host name or address.
    public var host: String
    /// The TCP port (default 4318, OTLP/HTTP's).
    public var port: UInt16
    /// The request path, e.g. `/v1/traces`.
    public var path: String

    /// The endpoint `url` names; `appendingPath` is added to its path (the signal's path under a
    /// base URL, as `OTEL_EXPORTER_OTLP_ENDPOINT` is read).
    public init(url: String, appendingPath: String?) throws(OTLPEndpointError) {
        guard url.hasPrefix("http://") else { throw .scheme(url) }
        let rest = url.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" }
        var path = String(rest.dropFirst(authority.count))
        if let appendingPath { path = (path.hasSuffix("/") ? path : path + "/") + appendingPath }
        if path.isEmpty { path = "/" }
        var host = String(authority)
        var port: UInt16 = 4318
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            guard let number = UInt16(authority[authority.index(after: colon)...]) else { throw .port(url) }
            host = String(authority[..<colon])
            port = number
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw .host(url) }
        self.host = host
        self.port = port
        self.path = path
    }

    /// `http://host:port/path`.
    public var description: String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)\(path)" }
}
