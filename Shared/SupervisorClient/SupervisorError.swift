#if canImport(Glibc)
import Glibc
#endif
import VerticalsWire

/// Why the supervisor could not do something: what was wrong and what to do.
///
/// Compare ``code`` with the static members of ``Code`` (new codes may be added); the file or
/// folder it is about is the detail `path`, and a failed system call's number the detail `errno`.
///
/// ```swift
/// do { try RunDirectory.checkOwn(folder) }
/// catch where error.code == .notOwned { … error.detail("path") … }
/// ```
public struct SupervisorError: StoredCodedError {
    /// What kind of failure it is.
    public typealias Code = ErrorKind<SupervisorError>

    /// Its code, message, details (`path`, `errno`, `status`… as the code says) and cause.
    public let storage: CodedErrorStorage<SupervisorError>

    /// The error `storage` describes.
    public init(storage: CodedErrorStorage<SupervisorError>) { self.storage = storage }

    /// `what` failed with `errno` `code` (the current one unless given): code `system`, the
    /// message `what: strerror`, the details `path` (when given) and `errno`.
    package static func system(_ what: String, path: String? = nil, errno code: Int32 = errno) -> SupervisorError {
        SupervisorError(
            .system, "\(what): \(errnoText(code))",
            details: (path.map { [ErrorDetail("path", $0)] } ?? []) + [ErrorDetail("errno", "\(code)")])
    }

    /// `strerror(errno)`.
    package static func errnoText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }
}

extension ErrorKind where Domain == SupervisorError {
    /// A system call failed: the message says which and why, the detail `errno` gives its number.
    public static var system: Self { Self("system") }
    /// A user or group the services need does not exist (yet): create it, or run as root.
    public static var notFound: Self { Self("notFound") }
    /// A file or folder the supervisor would trust belongs to, or may be changed by, someone else:
    /// the detail `path` names it.
    public static var notOwned: Self { Self("notOwned") }
    /// A service's user cannot reach what it needs (its program, a folder on the way).
    public static var unreachable: Self { Self("unreachable") }
    /// The supervisor will not do it as asked (a key not laid out as a key, a service as root,
    /// an endpoint that is not TCP).
    public static var refused: Self { Self("refused") }
    /// A socket path is over what a Unix socket address holds: the detail `path` names it.
    public static var pathTooLong: Self { Self("pathTooLong") }
    /// A folder holds more entries than the supervisor walks.
    public static var tooLarge: Self { Self("tooLarge") }
    /// A program the supervisor ran for it failed: the detail `status` is its wait status.
    public static var commandFailed: Self { Self("commandFailed") }
    /// Services depend on each other in a circle, so none can start first.
    public static var dependencyCycle: Self { Self("dependencyCycle") }
    /// The manifest has problems: one detail `problem` per problem, its `ManifestError` code.
    public static var invalidManifest: Self { Self("invalidManifest") }
}
