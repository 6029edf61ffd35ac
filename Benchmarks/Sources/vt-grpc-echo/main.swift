// vt-grpc-echo: the RPC section's gRPC Swift 2 peer, a unary echo over HTTP/2 on a Unix domain
// socket (grpc-swift-2 with grpc-swift-nio-transport's NIOPosix transport). Its own program, so
// that only it links gRPC; `vt-bench` starts it in each role as a child process.
//
//   vt-grpc-echo server PATH MODE                          until SIGTERM
//   vt-grpc-echo latency PATH MODE SIZE COUNT OUT          one call in flight, COUNT samples (ns) to OUT
//   vt-grpc-echo throughput PATH MODE SIZE CONNECTIONS DEPTH SECONDS   prints requests=N seconds=S
//
// MODE is `latency` or `throughput`: the transport's settings for each, as its documentation
// advises (see ``GRPCEchoSettings``).
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3, let mode = GRPCEchoSettings.Mode(rawValue: arguments[2]) else {
    stop("usage: vt-grpc-echo server|latency|throughput PATH latency|throughput [...]")
}
let path = arguments[1]
switch arguments[0] {
case "server" where arguments.count == 3:
    await GRPCEchoServer.serve(path: path, mode: mode)
case "latency" where arguments.count == 6:
    guard let size = Int(arguments[3]), let count = Int(arguments[4]), size >= 0, count > 0 else {
        stop("latency wants SIZE and COUNT as positive numbers, not \(arguments[3]) and \(arguments[4])")
    }
    await GRPCEchoClient.latency(path: path, mode: mode, size: size, count: count, output: arguments[5])
case "throughput" where arguments.count == 7:
    guard let size = Int(arguments[3]), let connections = Int(arguments[4]), let depth = Int(arguments[5]),
        let seconds = Double(arguments[6]), size >= 0, connections > 0, depth > 0, seconds > 0
    else {
        stop("throughput wants SIZE CONNECTIONS DEPTH SECONDS as positive numbers, not \(arguments[3...])")
    }
    await GRPCEchoClient.throughput(
        path: path, mode: mode, size: size, connections: connections, depth: depth, seconds: seconds)
default:
    stop("unknown arguments \(arguments)")
}
