import VerticalsClient
import VerticalsEventLoop

/// Runs `body` with a client of the callees at `sockets`, on an event loop of its own named
/// `name` (with `offLoop`, where it decodes large answers); closes the client and shuts the loop
/// down after, whatever `body` does.
func withClient<Result>(
    _ name: String, sockets: SocketDirectory, offLoop: OffLoop? = nil,
    _ body: (ServiceClient) async throws -> Result
) async throws -> Result {
    let loop = try EventLoop(name: name)
    let client = ServiceClient(loop: loop, sockets: sockets, offLoop: offLoop)
    defer {
        client.close()
        loop.shutdown()
    }
    return try await body(client)
}
