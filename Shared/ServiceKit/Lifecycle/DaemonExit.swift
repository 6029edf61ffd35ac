import Logging
import VerticalsClient
import VerticalsContract
import VerticalsWire

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
///
/// In the framework's error shape, its ``code`` names the case (`stopped`,
/// `answered`, `usage`, `socketUnavailable`,
/// `startFailed`, `restartCannotHelp`, `configurationInvalid`,
/// `unhealthy`, `failed`), the status is also the detail `status`, and an
/// unexpected failure keeps the error it was made from as its ``cause``.
public struct DaemonExit: CodedError {
    /// Which end it is.
    public typealias Code = ErrorKind<DaemonExit>

    private enum Kind: Sendable {
        case stopped, answered, usage, socketUnavailable, startFailed, restartCannotHelp, configurationInvalid, failed
        case unhealthy
    }

    private let kind: Kind
    /// What the daemon says as it ends, whole lines included (empty: nothing).
    public let message: String
    /// The error an unexpected failure was made from (``init(_:)``); none for the other ends.
    public let cause: (any Error)?

    private init(_ kind: Kind, _ message: String, cause: (any Error)? = nil) {
        self.kind = kind
        self.message = message
        self.cause = cause
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
            self.init(.failed, "failed: \(error)", cause: error)
        }
    }

    /// Which end it is, one for each way a daemon ends.
    public var code: Code {
        switch kind {
        case .stopped: .stopped
        case .answered: .answered
        case .usage: .usage
        case .socketUnavailable: .socketUnavailable
        case .startFailed: .startFailed
        case .restartCannotHelp: .restartCannotHelp
        case .configurationInvalid: .configurationInvalid
        case .failed: .failed
        case .unhealthy: .unhealthy
        }
    }

    /// The exit ``status``, as the detail `status`.
    public var details: [ErrorDetail] { [ErrorDetail("status", String(status))] }

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

    /// `exit <status>`, then the message when there is one.
    public var description: String { "exit \(status)\(message.isEmpty ? "" : ": \(message)")" }

    /// The same end and message; the causes are not compared.
    public static func == (lhs: DaemonExit, rhs: DaemonExit) -> Bool {
        lhs.kind == rhs.kind && lhs.message == rhs.message
    }
}

extension ErrorKind where Domain == DaemonExit {
    /// Served, drained and stopped in order (status 0).
    public static var stopped: Self { Self("stopped") }
    /// Answered the command line without serving (status 0).
    public static var answered: Self { Self("answered") }
    /// The command line is wrong (status 64).
    public static var usage: Self { Self("usage") }
    /// The socket cannot be had (status 69).
    public static var socketUnavailable: Self { Self("socketUnavailable") }
    /// The daemon could not start, and a restart may help (status 70).
    public static var startFailed: Self { Self("startFailed") }
    /// The daemon could not start, and a restart cannot help (status 78).
    public static var restartCannotHelp: Self { Self("restartCannotHelp") }
    /// `--check` found the environment invalid (status 78).
    public static var configurationInvalid: Self { Self("configurationInvalid") }
    /// `--probe` had no healthy answer (status 1).
    public static var unhealthy: Self { Self("unhealthy") }
    /// An error no end was decided for: the ``DaemonExit/cause`` (status 70).
    public static var failed: Self { Self("failed") }
}
