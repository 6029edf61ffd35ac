import VerticalsWire

/// Where a vertical listens or is reached: `unix:PATH` or `tcp:HOST:PORT`. The value lives in
/// VerticalsWire, so that code describing a suite (the manifest, its exports) names endpoints
/// without linking libuv; the event loop connects and listens on it.
public typealias SocketEndpoint = VerticalsWire.SocketEndpoint

/// Why a text is not a ``SocketEndpoint`` (in VerticalsWire beside it).
public typealias SocketEndpointError = VerticalsWire.SocketEndpointError
