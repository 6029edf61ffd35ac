// vt-bench-call: the baseline of the CLI row of `make bench`. The call `svc-supervisor call
// clinics nearest JSON` makes, from a program with the clinics contract compiled in: parse the
// JSON as the typed Input, one call, print the typed Output as the same pretty JSON. No cache,
// no describe, no argument parser: what a call costs when nothing is learned at run time.
//
//   vt-bench-call SOCKET_DIR JSON
//   vt-bench-call --startup          exits at once: the cost of starting this program
import Glibc
import IOInterface
import VerticalsClient
import VerticalsEventLoop
import VerticalsWire

/// Writes `text` and a newline to standard error.
func complain(_ text: String) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
if arguments.count == 2 && arguments[1] == "--startup" { exit(0) }
guard arguments.count == 3 else {
    complain("usage: vt-bench-call SOCKET_DIR JSON")
    exit(64)
}
do {
    let input = try Clinics.NearestInput(json: arguments[2])
    let loop = try EventLoop(name: "vt-bench-call")
    let client = ServiceClient(loop: loop, sockets: SocketDirectory(arguments[1]))
    let output = try await client.call(Clinics.nearest, input, timeout: .seconds(10))
    print(try output.jsonString(pretty: true))
    client.close()
    loop.shutdown()
} catch {
    complain("vt-bench-call: \(error)")
    exit(1)
}
