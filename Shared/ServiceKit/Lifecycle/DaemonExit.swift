import Logging
import VerticalsClient
import VerticalsContract

/// How a daemon's process ends, and the one place that maps it to an exit status (sysexits(3)).
///
/// Everything a daemon decides about its end is thrown or returned as a `DaemonExit`, and
/// ``DaemonMain`` reports it (``report(logger:)``) and hands its ``status`` to `main.swift`,
/// the only place that calls `exit`:
///
/// | case | status | said where |
/// |---|---|---|
/// | ``stopped`` | 0 | (logged by the services) |
/// | ``answered(_:)`` (`--help`, `--version`, a passed `--check`) | 0 | standard output |
/// | ``usage(_:)`` | 64 `EX_USAGE` | standard error |
/// | ``socketUnavailable(_:)`` | 69 `EX_UNAVAILABLE` | the log |
/// | ``cannotStart(_:restartCannotHelp:)`` | 70 `EX_SOFTWARE`, 78 when a restart cannot help | standard error |
/// | ``configurationInvalid(_:)`` (a failed `--check`) | 78 `EX_CONFIG` | standard error |
/// | ``unhealthy(_:)`` (a failed `--probe`) | 1 | standard error |
/// | ``init(_:)`` of any other error | 70 `EX_SOFTWARE` | the log |
///
/// Supervisors read the status: 78 (`DaemonExitStatus/restartCannotHelp`) is never restarted.
public struct DaemonExit: Error, Sendable, CustomStringConvertible {
    private enum Kind: Sendable {
        case stopped, answered, usage, socketUnavailable, startFailed, restartCannotHelp, configurationInvalid, failed
        case unhealthy
    }

    private let kind: Kind
    /// What the daemon says as it ends, whole lines included (empty: nothing).
    public let message: String

    private init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// Served, drained and stopped in order: status 0.
    public static let stopped = DaemonExit(.stopped, "")

    /// Answered the command line (`--help`, `--version`, a passed `--check`) without serving:
    /// `text` goes to standard output as it is; status 0.
    public static func answered(_ text: String) -> DaemonExit { DaemonExit(.answered, text) }

    /// The command line is wrong: `text` (what was wrong, then the usage) to standard error; status 64.
    public static func usage(_ text: String) -> DaemonExit { DaemonExit(.usage, text) }

    /// The socket cannot be had (path too long, address in use): `reason` is logged as critical;
    /// status 69, so the supervisor records why.
    public static func socketUnavailable(_ reason: String) -> DaemonExit { DaemonExit(.socketUnavailable, reason) }

    /// The daemon could not start: `text` to standard error; status 78 when a restart cannot
    /// help (`DaemonExitStatus/restartCannotHelp`), else 70 (`DaemonExitStatus/startFailed`).
    public static func cannotStart(_ text: String, restartCannotHelp: Bool = false) -> DaemonExit {
        DaemonExit(restartCannotHelp ? .restartCannotHelp : .startFailed, text)
    }

    /// `--check` found the environment invalid: `text` (every problem) to standard error; status 78.
    public static func configurationInvalid(_ text: String) -> DaemonExit { DaemonExit(.configurationInvalid, text) }

    /// `--probe` had no healthy answer: `text` (why) to standard error; status 1, what an exec probe reads as failed.
    public static func unhealthy(_ text: String) -> DaemonExit { DaemonExit(.unhealthy, text) }

    /// The end `error` means: itself when it is a `DaemonExit`, else an unexpected failure
    /// (logged as critical, status 70).
    public init(_ error: any Error) {
        if let exit = error as? DaemonExit {
            self = exit
        } else {
            self.init(.failed, "failed: \(error)")
        }
    }

    /// The process exit status, one of `DaemonExitStatus/all`.
    public var status: Int32 {
        switch kind {
        case .stopped, .answered: DaemonExitStatus.stopped
        case .usage: DaemonExitStatus.usage
        case .socketUnavailable: DaemonExitStatus.socketUnavailable
        case .startFailed, .failed: DaemonExitStatus.startFailed
        case .restartCannotHelp, .configurationInvalid: DaemonExitStatus.restartCannotHelp
        case .unhealthy: DaemonExitStatus.unhealthy
        }
    }

    /// Says ``message`` where this end is said: standard output, standard error, or `logger`
    /// (standard error without one).
    public func report(logger: Logger?) {
        guard !message.isEmpty else { return }
        switch kind {
        case .stopped, .answered:
            print(message, terminator: "")
        case .usage, .startFailed, .restartCannotHelp, .configurationInvalid, .unhealthy:
            StandardError.write(message)
        case .socketUnavailable, .failed:
            if let logger { logger.critical("\(message)") } else { StandardError.write(message + "\n") }
        }
    }

    public var description: String { "exit \(status)\(message.isEmpty ? "" : ": \(message)")" }
}
