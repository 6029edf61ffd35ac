#if canImport(Glibc)
import Glibc
#endif
import VerticalsSupervisorClient
import VerticalsWire

/// A failure the CLI reports on standard error with its own exit status. Its text is a
/// ``TerminalText``: a vertical's words in it show their controls as escapes.
///
/// Compare ``code`` with the static members of ``Code`` (new codes may be added), never the
/// text; ``status`` is what the program exits with, and a refusal that came from a vertical or
/// the supervisor carries that `ServiceError` as its ``cause``.
///
/// ```swift
/// do { session = try login.load() }
/// catch let error as CLIError where error.code == .untrusted { … }
/// ```
package struct CLIError: CodedError {
    /// What kind of failure it is.
    package typealias Code = ErrorKind<CLIError>

    /// What kind of failure it is.
    package let code: Code
    /// The exit status the program ends with (``CLIExitStatus``).
    package let status: Int32
    /// The message as the terminal shows it.
    package let text: TerminalText
    /// What a program may read of it: `path`, `errno`, `wireCode`… as the code says.
    package let details: [ErrorDetail]
    /// The error that led to it, when another one did.
    package let cause: (any Error)?

    /// An error of `code` that ends the program with `status`, saying `text`.
    package init(
        _ code: Code, status: Int32, _ text: TerminalText, details: [ErrorDetail] = [], cause: (any Error)? = nil
    ) {
        self.code = code
        self.status = status
        self.text = text
        self.details = details
        self.cause = cause
    }

    /// A message composed as a `String` (with `+`): all of it is shown through ``VisibleText``,
    /// a newline in it included, since nothing tells the code's text from a vertical's.
    @_disfavoredOverload
    package init(
        _ code: Code, status: Int32, _ message: String, details: [ErrorDetail] = [], cause: (any Error)? = nil
    ) {
        self.init(code, status: status, "\(message)", details: details, cause: cause)
    }

    /// `what` failed with `errno` `code` (the current one unless given): code `system`, the
    /// message `what: strerror`, the details `path` (when given) and `errno`.
    package static func system(
        status: Int32, _ what: TerminalText, path: String? = nil, errno code: Int32 = errno
    ) -> CLIError {
        CLIError(
            .system, status: status, "\(what): \(SupervisorError.errnoText(code))",
            details: (path.map { [ErrorDetail("path", $0)] } ?? []) + [ErrorDetail("errno", "\(code)")])
    }

    /// The message as printed.
    package var message: String { text.visible }

    /// The same error with `lines` after its text (a hint, where to look).
    package func adding(lines: [TerminalText]) -> CLIError {
        CLIError(code, status: status, TerminalText(lines: [text] + lines), details: details, cause: cause)
    }

    /// The same code, status, text and details; the causes are not compared.
    package static func == (lhs: CLIError, rhs: CLIError) -> Bool {
        lhs.code == rhs.code && lhs.status == rhs.status && lhs.text == rhs.text && lhs.details == rhs.details
    }
}

extension ErrorKind where Domain == CLIError {
    /// The command line is wrong: a flag without its value, words that do not fit the operation,
    /// a folder the command cannot place, a `$VERTICALS_SUITE` that is no suite name (status 64).
    package static var usage: Self { Self("usage") }
    /// No vertical, service, operation, trace or recipient goes by the name given.
    package static var notFound: Self { Self("notFound") }
    /// A value given does not fit what it is for: not JSON, not a number, no password (status 64).
    package static var invalidInput: Self { Self("invalidInput") }
    /// Nothing answers: no supervisor, a vertical down, none found to ask (status 69).
    package static var unreachable: Self { Self("unreachable") }
    /// What was asked was refused: by the vertical or supervisor that answered (its
    /// `ServiceError` the cause, its code the detail `wireCode`), or by the CLI itself, which
    /// sends no secret given on a command line.
    package static var refused: Self { Self("refused") }
    /// What was asked did not happen: a service did not start, a backup was not taken, a new
    /// build did not describe itself.
    package static var failed: Self { Self("failed") }
    /// What was asked had not happened when the wait ended (status 75).
    package static var timedOut: Self { Self("timedOut") }
    /// The operation needs a session token and there is no stored login (status 77).
    package static var notLoggedIn: Self { Self("notLoggedIn") }
    /// What the CLI would trust with a secret could be someone else's: a file or folder others
    /// may write, a vertical whose listener is refused or that claims another's mark (status 77).
    package static var untrusted: Self { Self("untrusted") }
    /// The vertical serves no operation or secret field the command needs (an older vertical).
    package static var unsupported: Self { Self("unsupported") }
    /// A vertical answered what this CLI cannot read (status 76).
    package static var badAnswer: Self { Self("badAnswer") }
    /// A file the CLI reads is not laid out as it should be: the detail `path` names it.
    package static var malformed: Self { Self("malformed") }
    /// Neither `XDG_STATE_HOME` nor `HOME` places the stored login (status 78).
    package static var misconfigured: Self { Self("misconfigured") }
    /// A system call failed: the detail `path` names the file, `errno` gives its number.
    package static var system: Self { Self("system") }
    /// The manifest does not load: its `ManifestError` is the cause (status 65).
    package static var invalidManifest: Self { Self("invalidManifest") }
    /// The CLI lacks what it should know (status 70).
    package static var `internal`: Self { Self("internal") }
}
