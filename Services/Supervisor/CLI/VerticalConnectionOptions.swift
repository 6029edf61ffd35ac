import ArgumentParser
import ServiceKit

/// The options of a CLI command that talks to a vertical's socket (`call`, `describe`).
///
/// The socket folder is `--socket-dir`, else `$VERTICALS_SOCKET_DIR` (or
/// `$VERTICALS_RUN_DIR/sockets`), else `.run/sockets` as `make run` lays it out.
struct VerticalConnectionOptions: ParsableArguments {
    @Option(name: .long, help: "The folder of the suite's sockets (default: $VERTICALS_SOCKET_DIR, else .run/sockets).")
    var socketDir: String?

    @Option(name: .long, help: "Seconds to wait for the answer.")
    var timeout: Double = 10

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
    }

    /// Where the vertical's socket is.
    var sockets: SocketDirectory {
        let environment = ProcessEnvironment.current
        return socketDir.map(SocketDirectory.init)
            ?? (environment["VERTICALS_SOCKET_DIR"] != nil || environment["VERTICALS_RUN_DIR"] != nil
                ? SocketDirectory.from(environment: environment) : SocketDirectory(".run/sockets"))
    }

    /// The answer's deadline.
    var deadline: Duration { .milliseconds(Int64(timeout * 1000)) }
}
