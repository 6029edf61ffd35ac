import VerticalsClient
import VerticalsTestSupport
import VerticalsTesting
import VerticalsEventLoop
import VerticalsServiceKit

/// A ``ServiceHost`` of a router in this process, on a loop of its own, listening in a temporary
/// socket directory, with clients on another loop: real sockets, no daemon to start.
final class HostedRouter {
    let directory = TemporaryDirectory()
    let loop: EventLoop
    let clientLoop: EventLoop
    let host: ServiceHost
    /// The first client, made with the host.
    let client: ServiceClient
    private var clients: [ServiceClient]

    /// Starts a host of `router` (service `echo`, its accepting loop named `loopName`, serving on
    /// `loops` loops) with `configure`'s changes to its configuration.
    init(
        _ router: Router, loopName: String, loops: Int = 1,
        configure: (inout HostConfiguration) -> Void = { _ in }
    ) async throws {
        loop = try EventLoop(name: loopName)
        clientLoop = try EventLoop(name: "\(loopName)-clients")
        var configuration = HostConfiguration(name: "echo", socketDirectory: SocketDirectory(directory.path))
        configuration.loops = loops
        configure(&configuration)
        host = ServiceHost(configuration: configuration, router: router, loop: loop)
        try await host.start()
        client = ServiceClient(loop: clientLoop, sockets: SocketDirectory(directory.path))
        clients = [client]
    }

    /// A new client: its own connection, made by its first call.
    func newClient() -> ServiceClient {
        let client = ServiceClient(loop: clientLoop, sockets: SocketDirectory(directory.path))
        clients.append(client)
        return client
    }

    /// Closes every client, stops the host and both loops.
    func close() async {
        for client in clients { client.close() }
        await host.stop()
        clientLoop.shutdown()
        loop.shutdown()
    }
}
