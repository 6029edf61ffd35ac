import Testing
import VerticalsTesting

/// One reference vertical started alone, its sockets and run folder in a temporary directory,
/// once it listens. Stop it with `daemon.stop()`.
struct LoneVertical {
    /// The running `svc-NAME`.
    let daemon: DaemonProcess
    /// The environment it runs with, to run its program again beside it.
    let environment: [String: String]
    /// Its socket.
    let socket: String

    /// Starts `svc-<name>` with its sockets in `directory`'s folder `sockets` and `extra` in its
    /// environment, and waits until it listens (a daemon that never does is stopped).
    init(_ name: String, in directory: TemporaryDirectory, sockets: String = "sockets", extra: [String: String] = [:])
        throws
    {
        let environment = VerticalTestEnvironment.variables(
            for: name, sockets: directory.file(sockets), runDirectory: directory.path
        ).merging(extra) { $1 }
        let daemon = try DaemonProcess("svc-\(name)", environment: environment)
        let socket = directory.file("\(sockets)/\(name).sock")
        do {
            try #require(
                eventually(timeout: .seconds(20)) { (try? RawClient(path: socket)) != nil }, "\(name) never listened")
        } catch {
            daemon.stop()
            throw error
        }
        self.daemon = daemon
        self.environment = environment
        self.socket = socket
    }
}
