// vt-alloc-count: allocations a request in steady state, counted by malloc interposition
// (CAllocCount), at a Verticals server and at its typed client, over a Unix socket.
//
//   vt-alloc-count [REQUESTS]          prints, after a warm-up, allocations a request for
//                                      REQUESTS requests (default 10000) of each measurement
//   vt-alloc-count serve sync|async PARENT   the counting server (CountingServer), started by the above
//
// Output, one line each, the figure with two decimals:
//   server.onSync N     the server, its echo handler `onSync`
//   server.async N      the server, its echo handler async (`on`)
//   client N            ServiceClient.call against the onSync server
// The echo's Input and Output hold one integer and no heap storage, so every allocation counted
// is the framework's (and the Swift runtime's on its behalf), none the vertical's own.
// VT_ALLOC_TRACE=FOLDER writes the stacks of some counted allocations of each process to
// FOLDER/ROLE.stacks (AllocationTrace): which code they are.
import Glibc
import VerticalsClient

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.count == 3, arguments[0] == "serve", ["sync", "async"].contains(arguments[1]),
    let parent = Int32(arguments[2])
{
    exit(CountingServer.run(handler: arguments[1], parent: parent))
}
guard arguments.count <= 1, let requests = arguments.isEmpty ? 10_000 : Int(arguments[0]), requests > 0 else {
    StandardError.write("usage: vt-alloc-count [REQUESTS]\n")
    exit(2)
}
func figure(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
do {
    let warmUp = max(requests / 10, 100)
    let sync = try await CountingClient(handler: "sync", requests: requests, warmUp: warmUp).measure()
    let async = try await CountingClient(handler: "async", requests: requests, warmUp: warmUp).measure()
    print("server.onSync \(figure(sync.server))")
    print("server.async \(figure(async.server))")
    print("client \(figure(sync.client))")
} catch {
    StandardError.write("vt-alloc-count: \(error)\n")
    exit(1)
}
