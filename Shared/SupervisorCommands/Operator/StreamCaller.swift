import Glibc
import VerticalsContract
import VerticalsEventLoop
import VerticalsClient
import VerticalsSupervisorClient
import VerticalsWire

/// `svc-supervisor call` of a streaming operation: prints each event as one line of compact
/// JSON as it arrives, until the stream ends (exit 0), fails (its refusal's exit status) or
/// the user stops it (Ctrl-C, which closes the connection: the callee stops the stream). A
/// refusal that may come from a stale description (`unimplemented`, `invalidInput`) before the
/// first event is ``LearnedCall/Stale``, so the call is made again over a fresh one.
///
/// The stream has no deadline (`--timeout` bounds plain calls only). The supervisor's own
/// operations (`call supervisor logs …`) go to `<run dir>/supervisor.sock`, the run directory
/// being the socket folder's parent, as `svc-supervisor up` lays it out.
enum StreamCaller {
    static func printEvents(
        _ operation: DescribedOperation, event: DescribedMessage, _ input: MessageValue, of contract: DescribedContract,
        learned: LearnedContracts
    ) async throws {
        let loop = try EventLoop(name: "svc-supervisor-stream")
        let client = ServiceClient(loop: loop, sockets: learned.sockets(for: contract.name))
        defer {
            client.close()
            loop.shutdown()
        }
        let body = try input.encoded(as: operation.input.schema)
        var printed = false
        do {
            for try await frame in client.streamRaw(service: contract.name, operation: operation.fullName, body: body) {
                let value = try MessageValue(decoding: frame, as: event.schema)
                Terminal.json(try value.jsonText(as: event.schema))
                Terminal.flush()
                printed = true
            }
        } catch let error as ServiceError {
            let refusal = CLIError(refusal: error, of: operation.fullName)
            // Refused before any event, as a call is: the description may be stale (LearnedCall
            // refreshes it and opens the stream again, once). After events, the stream stands.
            if !printed, error.code == .unimplemented || error.code == .invalidInput {
                throw LearnedCall.Stale(refusal: refusal)
            }
            throw refusal
        }
    }

    /// The run directory whose `sockets` folder is `sockets` (`supervisor.sock` is in it).
    static func runDirectory(of sockets: SocketDirectory) -> SocketDirectory {
        let path = sockets.path.hasSuffix("/") ? String(sockets.path.dropLast()) : sockets.path
        guard let slash = path.lastIndex(of: "/") else { return SocketDirectory(".") }
        return SocketDirectory(slash == path.startIndex ? "/" : String(path[..<slash]))
    }
}
