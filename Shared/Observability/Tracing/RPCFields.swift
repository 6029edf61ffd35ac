import Tracing
import VerticalsEventLoop
import VerticalsWire

/// The RPC facts of a server or client span, kept as plain fields while the request runs and
/// turned into OpenTelemetry attributes only when the span is read or exported: a sampled request
/// then builds no attribute dictionary on its path.
public struct RPCFields: Sendable {
    /// `service.operation`.
    public var operation: String
    /// The callee, for a client span.
    public var peerService: String?
    /// `unix` or `tcp`, for a server span.
    public var transport: StaticString?
    /// The Unix peer's pid and uid, for a server span over a Unix socket.
    public var peer: PeerCredentials?
    /// The request's size on the wire, in bytes (0: not known yet).
    public var requestBytes: Int
    /// The answer's size on the wire, in bytes, once one came.
    public var responseBytes: Int?

    /// The facts known when a span starts.
    public init(
        operation: String, peerService: String? = nil, transport: StaticString? = nil, peer: PeerCredentials? = nil,
        requestBytes: Int = 0
    ) {
        self.operation = operation
        self.peerService = peerService
        self.transport = transport
        self.peer = peer
        self.requestBytes = requestBytes
    }

    /// The attributes of OpenTelemetry's RPC conventions: `rpc.system` = `verticals`,
    /// `rpc.service`, `rpc.method`, `rpc.verticals.code` (`ok` or the wire error code of `code`),
    /// `rpc.request.size` / `rpc.response.size`, `peer.service` or `network.transport` and the
    /// Unix peer's `verticals.peer.pid` / `.uid`.
    public func attributes(code: ErrorCode?) -> SpanAttributes {
        var attributes = SpanAttributes()
        attributes["rpc.system"] = "verticals"
        if let dot = operation.firstIndex(of: ".") {
            attributes["rpc.service"] = String(operation[..<dot])
            attributes["rpc.method"] = String(operation[operation.index(after: dot)...])
        } else {
            attributes["rpc.service"] = operation
        }
        attributes["rpc.verticals.code"] = code.map { "\($0)" } ?? "ok"
        if requestBytes > 0 { attributes["rpc.request.size"] = Int64(requestBytes) }
        if let responseBytes { attributes["rpc.response.size"] = Int64(responseBytes) }
        if let peerService { attributes["peer.service"] = peerService }
        if let transport { attributes["network.transport"] = "\(transport)" }
        if let peer {
            attributes["verticals.peer.pid"] = Int64(peer.pid)
            attributes["verticals.peer.uid"] = Int64(peer.uid)
        }
        return attributes
    }
}
