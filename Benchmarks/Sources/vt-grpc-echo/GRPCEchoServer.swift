import GRPCCore
import GRPCNIOTransportHTTP2Posix
import NIOPosix

/// `vt-grpc-echo server PATH MODE`: answers each unary call with its request, on PATH, until
/// SIGTERM ends the process.
enum GRPCEchoServer {
    static func serve(path: String, mode: GRPCEchoSettings.Mode) async {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: GRPCEchoSettings.eventLoopThreads)
        let transport = HTTP2ServerTransport.Posix(
            address: .unixDomainSocket(path: path), transportSecurity: .plaintext,
            config: GRPCEchoSettings.server(mode), eventLoopGroup: group)
        var router = RPCRouter<HTTP2ServerTransport.Posix>()
        router.registerHandler(
            forMethod: GRPCEchoSettings.method, deserializer: PassThroughCoding(), serializer: PassThroughCoding()
        ) { request, _ in
            let single = try await ServerRequest(stream: request)
            return StreamingServerResponse(single: ServerResponse(message: single.message))
        }
        let server = GRPCServer(transport: transport, router: router)
        do {
            try await server.serve()
        } catch {
            stop("the server on \(path) stopped: \(error)")
        }
    }
}
