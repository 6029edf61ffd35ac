import Glibc
import VerticalsContract
import VerticalsClient
import VerticalsWire

/// Why a vertical did not answer, when a supervisor knows: a call to a failed or starting
/// vertical under svc-supervisor waits in the socket the supervisor holds until its deadline,
/// and a stopped one (whose socket the supervisor removed) is refused at once; either way
/// "no answer" or "not reachable" alone sends the user looking in the wrong place.
enum UnansweredCallHint {
    /// A hint for `service`'s silence, from the supervisor whose run directory holds `sockets`
    /// (`<run dir>/sockets`), or nil when there is no such supervisor or the vertical is ready.
    static func ask(about service: String, sockets: SocketDirectory) async -> String? {
        let runDirectory = sockets.path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        let control = (runDirectory.isEmpty ? "." : runDirectory)
        guard access("\(control)/supervisor.sock", F_OK) == 0,
            let list = try? await ControlClient.call(
                Supervisor.status, Empty(), runDirectory: control, timeout: .seconds(2))
        else { return nil }
        return text(for: list.services.first { $0.name == service }, service: service, runDirectory: control)
    }

    /// The hint for a vertical in `status` (nil: the supervisor does not run it).
    static func text(for status: Supervisor.ServiceStatus?, service: String, runDirectory: String) -> String? {
        guard let status else { return "hint: the supervisor at \(runDirectory) does not run \(service)" }
        let exit = status.lastExit.isEmpty ? "" : " (last exit: \(status.lastExit))"
        switch status.state {
        case .ready:
            return nil
        case .stopped, .stopping:
            return
                "hint: \(service) is \(status.state.wireName)\(exit); start it with `svc-supervisor start \(service)`"
        case .failed:
            return "hint: \(service) has failed\(exit); see `svc-supervisor logs \(service)`, "
                + "then `svc-supervisor start \(service)`"
        case .idle:
            return "hint: \(service) is idle (on demand)\(exit): a call starts it, and its caller waits meanwhile; "
                + "`svc-supervisor logs \(service)` shows whether it started"
        case .waiting, .starting, .backoff, .unknown:
            return "hint: \(service) is \(status.state.wireName)\(exit); `svc-supervisor status` shows its progress"
        }
    }
}
