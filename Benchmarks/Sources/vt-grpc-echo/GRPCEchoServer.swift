import GRPCCore
import GRPCNIOTransportHTTP2Posix

/// `vt-grpc-echo server PATH SETUP`: answers each unary call with its request, on PATH, until
/// SIGTERM ends the process.
enum GRPCEchoServer {
    static func serve(path: String, setup: GRPCEchoSettings.Setup) async {
        let transport = HTTP2ServerTransport.Posix(
            address: .unixDomainSocket(path: path), transportSecurity: .plaintext,
            config: GRPCEchoSettings.server(setup), eventLoopGroup: GRPCEchoSettings.eventLoopGroup(setup))
        var router = RPCRouter<HTTP2ServerTransport.Posix>()
        router.registerHandler(
            forMethod: GRPCEchoSettings.method, deserializer: PassThroughCoding(), serializer: PassThroughCoding()
        ) { request, _ in
            let single = try await ServerRequest(stream: request)
            return StreamingServerResponse(single: ServerResponse(message: single.message))
        }
        let server = GRPCServer(transport: transport, router: router)
        do {
            try await withTaskExecutorPreference(GRPCEchoSettings.taskExecutor(setup)) {
                try await server.serve()
            }
        } catch {
            stop("the server on \(path) stopped: \(error)")
        }
    }
}
