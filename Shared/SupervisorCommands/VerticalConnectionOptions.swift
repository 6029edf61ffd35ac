import ArgumentParser
import VerticalsContract
import VerticalsClient

/// The options of a CLI command that talks to a vertical's socket (`call`, `open`, `describe`,
/// `log-level`, `login`, `logout`, `admin`, `backup`).
///
/// The socket folder is `--socket-dir` (as systemd lays it out, `/run/verticals`), else
/// `<--run-dir>/sockets`, else `$VERTICALS_SOCKET_DIR`, else `$VERTICALS_RUN_DIR/sockets`, else
/// the sockets of the suite a running `up` points to, else `.run/sockets` as `make run` lays it out
/// — as root, the socket folder of the suite systemd runs instead (`/run/NAME`,
/// ``SuiteLocation/rootFallback(environment:exported:)``).
package struct VerticalConnectionOptions: ParsableArguments {
    @Option(
        name: .long,
        help:
            "The folder of the suite's sockets, e.g. /run/verticals under systemd (default: those of the run directory)."
    )
    package var socketDir: String?

    @OptionGroup package var suite: RunDirectoryOption

    /// The defaults (ArgumentParser fills the options in).
    package init() {}

    /// How long a call waits for its answer when `--timeout` is not given, in seconds.
    package static let defaultTimeout = 10.0

    @Option(name: .long, help: "Seconds to wait for the answer.")
    package var timeout: Double = defaultTimeout

    package func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
    }

    /// Where the vertical's socket is; a vertical named in `VERTICALS_ENDPOINT_<NAME>` (e.g. one
    /// served on TCP, README "Endpoints") is called there instead, whichever folder is chosen,
    /// over mutual TLS with the operator's `VERTICALS_TLS_CERT`, `_KEY` and `_CA`.
    package var sockets: SocketDirectory {
        let environment = ProcessEnvironment.current
        let named = SocketDirectory.from(environment: environment)
        var directory: SocketDirectory
        if let socketDir {
            directory = SocketDirectory(socketDir)
        } else if let runDir = suite.runDir {
            directory = SocketDirectory("\(runDir)/sockets")
        } else if environment[DaemonSettings.socketDir.name].map({ !$0.isEmpty }) == true {
            directory = named
        } else {
            let location = suite.location
            directory = SocketDirectory(
                location.isSystemdSockets ? location.runDirectory : "\(location.runDirectory)/sockets")
        }
        directory.endpoints = named.endpoints
        directory.endpointProblems = named.endpointProblems
        directory.tls = named.tls
        return directory
    }

    /// The answer's deadline.
    package var deadline: Duration { .milliseconds(Int64(timeout * 1000)) }
}
