import VerticalsContract
#if canImport(Glibc)
import Glibc
#endif

/// Where a daemon keeps its socket and its state, by one rule for both, so a daemon started by
/// hand lands where the tools that talk to it look.
///
/// 1. What the service manager hands over comes first: `VERTICALS_SOCKET_DIR` for the socket
///    folder, `STATE_DIRECTORY` (the first, if systemd lists several) for the state.
/// 2. Else, with `VERTICALS_RUN_DIR` set, that run directory's layout, as svc-supervisor makes
///    it: `<run>/sockets/<name>.sock` and `<run>/state/<name>`.
/// 3. Else, as root, systemd's layout, so a root operator finds what the units use:
///    `/run/verticals/<name>.sock` and `/var/lib/verticals/<name>` (the units'
///    `VERTICALS_SOCKET_DIR=` and `StateDirectory=verticals/<name>`).
/// 4. Else `.run` in the current folder, as `make run` and the CLI's defaults lay it out:
///    `.run/sockets/<name>.sock` and `.run/state/<name>`.
///
/// ```swift
/// DaemonPaths(name: "clinics", environment: [:], isRoot: false).stateDirectory  // ".run/state/clinics"
/// ```
public struct DaemonPaths: Sendable, Equatable {
    /// The folder of the suite's sockets; this daemon's is `<folder>/<name>.sock`.
    public let sockets: SocketDirectory
    /// The daemon's state directory (its store lives here).
    public let stateDirectory: String
    /// Which rule gave the paths, for `--help`: e.g. `VERTICALS_RUN_DIR`, `systemd's layout (root)`.
    public let origin: String

    /// The systemd layout's socket folder.
    public static let systemSocketDirectory = "/run/verticals"
    /// The systemd layout's parent of every state directory.
    public static let systemStateParent = "/var/lib/verticals"
    /// The run directory a non-root daemon uses when nothing names one.
    public static let developmentRunDirectory = ".run"

    /// The paths of vertical `name` under `environment`; `isRoot` chooses rule 3 over rule 4.
    public init(name: String, environment: [String: String], isRoot: Bool = geteuid() == 0) {
        let run = Self.value(DaemonSettings.runDir.name, environment)
        let base: (sockets: String, state: String, origin: String)
        if let run {
            base = ("\(run)/sockets", "\(run)/state/\(name)", "VERTICALS_RUN_DIR=\(run)")
        } else if isRoot {
            base = (Self.systemSocketDirectory, "\(Self.systemStateParent)/\(name)", "systemd's layout, as root")
        } else {
            let dev = Self.developmentRunDirectory
            base = ("\(dev)/sockets", "\(dev)/state/\(name)", "the development run directory \(dev), not being root")
        }
        let socketFolder = Self.value(DaemonSettings.socketDir.name, environment)
        // systemd may list several state directories, colon-separated; the first is ours.
        let state = Self.value("STATE_DIRECTORY", environment).flatMap {
            $0.split(separator: ":").first.map(String.init)
        }
        sockets = SocketDirectory(socketFolder ?? base.sockets)
        stateDirectory = state ?? base.state
        switch (socketFolder, state) {
        case (.some, .some): origin = "VERTICALS_SOCKET_DIR and STATE_DIRECTORY"
        case (.some, nil): origin = "VERTICALS_SOCKET_DIR; state by \(base.origin)"
        case (nil, .some): origin = "STATE_DIRECTORY; socket by \(base.origin)"
        case (nil, nil): origin = base.origin
        }
    }

    /// The `--help` lines that say where vertical `name` would serve and keep its state.
    public func helpText(name: String) -> String {
        let (system, development) = (Self.systemSocketDirectory, Self.developmentRunDirectory)
        return """

            Paths, by \(origin):
              socket  \(sockets.socketPath(for: name))
              state   \(stateDirectory)
              Rule: VERTICALS_SOCKET_DIR and STATE_DIRECTORY first; else $VERTICALS_RUN_DIR/sockets and
              $VERTICALS_RUN_DIR/state/\(name); else, as root, \(system) and \(Self.systemStateParent)/\(name)
              (systemd's layout); else \(development)/sockets and \(development)/state/\(name).

            """
    }

    private static func value(_ key: String, _ environment: [String: String]) -> String? {
        guard let value = environment[key], !value.isEmpty else { return nil }
        return value
    }
}
