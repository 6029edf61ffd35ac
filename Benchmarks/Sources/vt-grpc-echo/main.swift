// vt-grpc-echo: the RPC section's gRPC Swift 2 peer, a unary echo over HTTP/2 on a Unix domain
// socket (grpc-swift-2 with grpc-swift-nio-transport's NIOPosix transport). Its own program, so
// that only it links gRPC; `vt-bench` starts it in each role as a child process.
//
//   vt-grpc-echo server PATH SETUP                          until SIGTERM
//   vt-grpc-echo latency PATH SETUP SIZE COUNT OUT          one call in flight, COUNT samples (ns) to OUT
//   vt-grpc-echo throughput PATH SETUP SIZE CONNECTIONS DEPTH SECONDS   prints requests=N seconds=S
//
// SETUP is `latency` or `throughput`, one event loop thread with the transport's settings for
// each as its documentation advises; or `tuned-coalesced` or `tuned-uncoalesced`, NIO's shared
// group as Swift's global executor and as the executor its tasks prefer, with flush coalescing on
// or off (see ``GRPCEchoSettings``). A tuned setup first prints `nio-executor=yes` or
// `nio-executor=no`: whether NIO took Swift's global executor over.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3, let setup = GRPCEchoSettings.Setup(rawValue: arguments[2]) else {
    stop(
        "usage: vt-grpc-echo server|latency|throughput PATH latency|throughput|tuned-coalesced|tuned-uncoalesced [...]")
}
GRPCEchoSettings.prepare(setup)
let path = arguments[1]
switch arguments[0] {
case "server" where arguments.count == 3:
    await GRPCEchoServer.serve(path: path, setup: setup)
case "latency" where arguments.count == 6:
    guard let size = Int(arguments[3]), let count = Int(arguments[4]), size >= 0, count > 0 else {
        stop("latency wants SIZE and COUNT as positive numbers, not \(arguments[3]) and \(arguments[4])")
    }
    await GRPCEchoClient.latency(path: path, setup: setup, size: size, count: count, output: arguments[5])
case "throughput" where arguments.count == 7:
    guard let size = Int(arguments[3]), let connections = Int(arguments[4]), let depth = Int(arguments[5]),
        let seconds = Double(arguments[6]), size >= 0, connections > 0, depth > 0, seconds > 0
    else {
        stop("throughput wants SIZE CONNECTIONS DEPTH SECONDS as positive numbers, not \(arguments[3...])")
    }
    await GRPCEchoClient.throughput(
        path: path, setup: setup, size: size, connections: connections, depth: depth, seconds: seconds)
default:
    stop("unknown arguments \(arguments)")
}
