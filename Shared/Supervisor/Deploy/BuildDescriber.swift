import CSpawn
import Glibc
import VerticalsClient
import VerticalsManifest
import VerticalsServiceKit
import VerticalsWire

/// Runs a build's `--describe` as untrusted code and reads its `BuildDescription`: the program
/// may be anyone's, so it gets nothing it could use. As root it runs as the vertical's own user
/// through vt-exec (`PR_SET_NO_NEW_PRIVS`), never as root; otherwise as the user who asks. Always:
/// an empty environment, `/` as its folder, stdin from `/dev/null`, no descriptor but its three,
/// a session of its own killed whole at ``timeout``, and at most ``maxBytes`` of output read.
///
/// ```swift
/// let describer = BuildDescriber(execShim: "/usr/libexec/vt-exec")
/// let build = try describer.describe("/opt/new/svc-clinics", as: .init(uid: 991, gid: 991))
/// ```
public struct BuildDescriber: Sendable {
    /// The user a build is described as.
    public struct Account: Sendable, Equatable {
        /// Its user id (never 0).
        public var uid: UInt32
        /// Its primary group.
        public var gid: UInt32

        /// Creates the account.
        public init(uid: UInt32, gid: UInt32) {
            self.uid = uid
            self.gid = gid
        }
    }

    /// vt-exec, which switches to the account between fork and exec.
    public var execShim: String
    /// How long a build may take to describe itself.
    public var timeout: Duration
    /// The most standard output read.
    public var maxBytes: Int

    /// Creates a describer.
    public init(execShim: String, timeout: Duration = .seconds(10), maxBytes: Int = BuildDescription.maxBytes) {
        self.execShim = execShim
        self.timeout = timeout
        self.maxBytes = maxBytes
    }

    /// Runs `program --describe`, as `account` when this process is root (required then), and
    /// reads what it prints.
    public func describe(_ program: String, as account: Account?) throws(BuildDescribeError) -> BuildDescription {
        let argv: [String]
        if geteuid() == 0 {
            guard let account, account.uid != 0 else {
                throw BuildDescribeError(
                    program, .refused, "root runs a build only as its vertical's own user, never as root")
            }
            argv = [
                execShim, "--user", String(account.uid), "--group", String(account.gid), "--", program, "--describe",
            ]
        } else {
            argv = [program, "--describe"]
        }
        let run = try DescribeRun.start(argv, program: program)
        let (output, errors, ending) = run.collect(timeout: timeout, maxBytes: maxBytes)
        switch ending {
        case .exited(0): break
        case .exited(let status):
            throw BuildDescribeError(program, .failed, "--describe exited with status \(status)\(Self.excerpt(errors))")
        case .signalled(let signal):
            throw BuildDescribeError(
                program, .failed, "--describe was killed by signal \(signal)\(Self.excerpt(errors))")
        case .timedOut:
            throw BuildDescribeError(program, .timedOut, "--describe did not finish within \(timeout): killed")
        case .tooLarge:
            throw BuildDescribeError(program, .malformed, "--describe printed more than \(maxBytes) bytes: killed")
        }
        do {
            return try BuildDescription.read(output)
        } catch {
            throw BuildDescribeError(program, .malformed, "--describe \(error)")
        }
    }

    /// The first line of what the program wrote to standard error, as a clause.
    static func excerpt(_ bytes: [UInt8]) -> String {
        let line = bytes.split(separator: UInt8(ascii: "\n")).first.map {
            String(decoding: $0.prefix(300), as: UTF8.self)
        }
        return line.map { ": \($0)" } ?? ""
    }
}

/// Why a build could not describe itself.
///
/// Its ``code`` follows its ``reason``: compare either with their static members. The program is
/// also the detail `program`.
public struct BuildDescribeError: CodedError {
    /// What went wrong: its ``reason``, as a code.
    public typealias Code = ErrorKind<BuildDescribeError>

    /// What went wrong.
    public enum Reason: String, Sendable, Equatable {
        /// It was not started (missing, not executable, refused).
        case notStarted
        /// Refused before starting: root would have run it as root.
        case refused
        /// It ran and failed (a status other than 0, a signal).
        case failed
        /// It took longer than the time limit.
        case timedOut
        /// What it printed is not a build description (or is too large).
        case malformed
    }

    /// The program.
    public var program: String
    /// What went wrong.
    public var reason: Reason
    /// In words.
    public var detail: String

    /// Creates the error.
    public init(_ program: String, _ reason: Reason, _ detail: String) {
        self.program = program
        self.reason = reason
        self.detail = detail
    }

    /// The ``reason``, as a code.
    public var code: Code { Code(reason.rawValue) }
    /// The ``detail``.
    public var message: String { detail }
    /// The program, as the detail `program`.
    public var details: [ErrorDetail] { [ErrorDetail("program", program)] }

    /// The message, after the program it is about.
    public var description: String { "\(program): \(detail)" }
}

extension ErrorKind where Domain == BuildDescribeError {
    /// It was not started (missing, not executable, refused).
    public static var notStarted: Self { Self(BuildDescribeError.Reason.notStarted.rawValue) }
    /// Refused before starting: root would have run it as root.
    public static var refused: Self { Self(BuildDescribeError.Reason.refused.rawValue) }
    /// It ran and failed (a status other than 0, a signal).
    public static var failed: Self { Self(BuildDescribeError.Reason.failed.rawValue) }
    /// It took longer than the time limit.
    public static var timedOut: Self { Self(BuildDescribeError.Reason.timedOut.rawValue) }
    /// What it printed is not a build description (or is too large).
    public static var malformed: Self { Self(BuildDescribeError.Reason.malformed.rawValue) }
}

extension BuildDescriber {
    /// Who describes a build of `spec`: as root its own user (`user`, else `prefix` + its name,
    /// as `up` runs it), which must exist and not be root; otherwise nobody but the caller (nil).
    public static func account(
        for spec: ServiceSpec, prefix: String = ServiceAccounts.defaultPrefix
    ) throws(BuildDescribeError) -> Account? {
        guard geteuid() == 0 else { return nil }
        let name = ServiceAccounts.userName(spec, prefix: prefix)
        guard let user = AccountDatabase.user(named: name) else {
            throw BuildDescribeError(spec.executable, .refused, "no user \(name) to run \(spec.name)'s build as")
        }
        guard user.uid != 0 else {
            throw BuildDescribeError(
                spec.executable, .refused, "\(spec.name)'s user \(name) is root; a build runs as an unprivileged user")
        }
        return Account(uid: user.uid, gid: user.gid)
    }
}
