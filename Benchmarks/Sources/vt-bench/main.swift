// vt-bench: `make bench`. Measures the wire, codec, supervisor and suite against baselines in
// the same run, interleaved round by round, and reports each figure as median [min–max].
//
//   vt-bench                     the whole run (settings from the environment: see BenchSettings)
//   vt-bench echo-server         roles the run starts as child processes (see EchoRoles)
//   vt-bench echo-latency DIR SIZE COUNT OUT
//   vt-bench echo-throughput DIR SIZE CONNECTIONS DEPTH SECONDS [timed]
//   vt-bench nio-echo-server PATH [THREADS]
//   vt-bench nio-echo-latency PATH PAYLOAD COUNT OUT
//   vt-bench connect-cost tcp:HOST:PORT COUNT   (TLS from VERTICALS_TLS_*, else plain)
//   vt-bench first-call DIR COUNT
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "echo-server" where arguments.count == 1:
    exit(EchoRoles.server())
case "echo-latency" where arguments.count == 5:
    EchoRoles.latency(
        socketDirectory: arguments[1], size: Int(arguments[2]) ?? 64, count: Int(arguments[3]) ?? 20_000,
        output: arguments[4])
case "echo-throughput" where arguments.count == 6 || arguments.count == 7:
    await EchoRoles.throughput(
        socketDirectory: arguments[1], size: Int(arguments[2]) ?? 64, connections: Int(arguments[3]) ?? 1,
        depth: Int(arguments[4]) ?? 64, seconds: Double(arguments[5]) ?? 1, timed: arguments.count == 7)
case "nio-echo-server" where arguments.count == 2 || arguments.count == 3:
    await NIOEcho.server(path: arguments[1], threads: arguments.count == 3 ? Int(arguments[2]) ?? 1 : 1)
case "nio-echo-latency" where arguments.count == 5:
    await NIOEcho.latency(
        path: arguments[1], payload: Int(arguments[2]) ?? 97, count: Int(arguments[3]) ?? 20_000, output: arguments[4])
case "first-call" where arguments.count == 3:
    EchoRoles.firstCall(socketDirectory: arguments[1], count: Int(arguments[2]) ?? 200)
case "connect-cost" where arguments.count == 3:
    await EchoRoles.connectCost(endpoint: arguments[1], count: Int(arguments[2]) ?? 200)
case nil, "run":
    await BenchRun(settings: BenchSettings.from(ProcessInfo.processInfo.environment)).run()
default:
    fail("unknown arguments \(arguments); run without any for the whole benchmark")
}
