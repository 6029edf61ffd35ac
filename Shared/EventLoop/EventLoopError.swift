import CLibUV
import VerticalsWire

/// Why an event-loop operation failed.
///
/// An API-stable struct wrapping a private enum (as swift-nio does), so adding a case
/// breaks nobody. Compare with the static values, or switch on ``code`` (also ``kind``):
///
/// ```swift
/// do { listener = try StreamListener.bind(path: path, on: loop) }
/// catch where error.code == .addressInUse { … another instance is already serving … }
/// ```
///
/// The socket path is also the detail `path` (and its limit `limit`), a failed libuv call the
/// detail `operation`, a child's failed step the detail `step`, and libuv's errno the detail
/// `errno` (also ``errnoCode``).
public struct EventLoopError: CodedError {
    enum Reason: Equatable, Sendable {
        case pathTooLong(path: String, limit: Int)
        case addressInUse(path: String)
        case connectionRefused
        case notFound
        case closed
        case system(operation: String, code: Int32)
        case tls(String)
        case certificate(String)
        case spawn(step: String, code: Int32)
    }

    let reason: Reason

    /// The longest socket path libuv 1.44 binds or connects to without silently truncating it.
    public static let maxSocketPathLength = SocketEndpoint.maxUnixPathLength

    /// A socket path longer than `limit` bytes; checked before libuv sees it, so no file was created.
    public static func pathTooLong(_ path: String, limit: Int = EventLoopError.maxSocketPathLength) -> EventLoopError {
        EventLoopError(reason: .pathTooLong(path: path, limit: limit))
    }

    /// Something already lives at `path`: a server that answers, or a file that is not a socket;
    /// for TCP, `path` is the endpoint (`tcp:HOST:PORT`) another socket listens on.
    public static func addressInUse(_ path: String) -> EventLoopError {
        EventLoopError(reason: .addressInUse(path: path))
    }

    /// A socket exists at the path but nobody listens on it (ECONNREFUSED).
    public static let connectionRefused = EventLoopError(reason: .connectionRefused)

    /// No such file or directory (ENOENT): nothing listens at the path, or an executable is missing.
    public static let notFound = EventLoopError(reason: .notFound)

    /// The connection, handle or loop was closed before the operation could complete.
    public static let closed = EventLoopError(reason: .closed)

    /// A TLS handshake or record failed: no certificate, one the suite CA did not sign, the wrong
    /// peer name, a handshake not finished in time, a corrupt record.
    public static func tls(_ message: String) -> EventLoopError {
        EventLoopError(reason: .tls(message))
    }

    /// A TLS handshake or record failed over a certificate: the peer refused this side's (an
    /// alert), or this side refused the peer's, or it does not name the peer expected. Its
    /// ``kind`` is `tls`; ``refusesCertificate`` tells it apart.
    public static func certificate(_ message: String) -> EventLoopError {
        EventLoopError(reason: .certificate(message))
    }

    /// The TLS failure `error` is: ``certificate(_:)`` when it refused a certificate, else ``tls(_:)``.
    public static func tls(_ error: TLSError) -> EventLoopError {
        error.refusesCertificate ? .certificate(error.description) : .tls(error.description)
    }

    /// Whether a certificate was refused, by either side: trying again with the same
    /// certificates cannot help.
    public var refusesCertificate: Bool {
        if case .certificate = reason { return true }
        return false
    }

    /// A step of a `ChildProcess/Options/Launch/vfork(parentDeathSignal:)` start failed in the
    /// child, before the program ran (`exec` for a missing program, `pdeathsig`, `chdir`, …),
    /// with the negative errno; no child is left behind.
    public static func spawn(step: String, code: Int32) -> EventLoopError {
        EventLoopError(reason: .spawn(step: step, code: code))
    }

    /// Any other failure, with libuv's negative errno (for example `UV_EACCES`).
    public static func system(operation: String, code: Int32) -> EventLoopError {
        EventLoopError(reason: .system(operation: operation, code: code))
    }

    /// Maps a libuv status (a negative errno) to the typed kinds where one fits.
    static func uv(_ operation: String, _ code: Int32, path: String? = nil) -> EventLoopError {
        switch code {
        case UV_ENOENT.rawValue: .notFound
        case UV_ECONNREFUSED.rawValue: .connectionRefused
        case UV_ECANCELED.rawValue: .closed
        case UV_EADDRINUSE.rawValue: path.map { .addressInUse($0) } ?? .system(operation: operation, code: code)
        default: .system(operation: operation, code: code)
        }
    }

    /// The category of an ``EventLoopError``, for `switch` and `==` without the payload.
    public typealias Kind = ErrorKind<EventLoopError>
    /// The ``Kind``, by the name every `CodedError` gives it.
    public typealias Code = Kind

    /// The category of this error: its ``kind``.
    public var code: Code { kind }

    /// The category of this error.
    public var kind: Kind {
        switch reason {
        case .pathTooLong: .pathTooLong
        case .addressInUse: .addressInUse
        case .connectionRefused: .connectionRefused
        case .notFound: .notFound
        case .closed: .closed
        case .system: .system
        case .tls, .certificate: .tls
        case .spawn: .spawn
        }
    }

    /// Whether trying again shortly may succeed: `EAGAIN`, which a Unix socket's `connect`
    /// answers while the listener's backlog is full (its daemon is slow to accept, not gone).
    public var isTransient: Bool {
        if case .system(_, let code) = reason { return code == UV_EAGAIN.rawValue }
        return false
    }

    /// Whether the process (`EMFILE`) or the system (`ENFILE`) had no descriptor left: raise
    /// the descriptor limit (`RLIMIT_NOFILE`, the manifest's `limits.open_files`) or hold fewer.
    public var isDescriptorShortage: Bool {
        if case .system(_, let code) = reason { return code == UV_EMFILE.rawValue || code == UV_ENFILE.rawValue }
        return false
    }

    /// The socket path the error is about, when it names one.
    public var path: String? {
        switch reason {
        case .pathTooLong(let path, _), .addressInUse(let path): path
        default: nil
        }
    }

    /// The step of a child's start that failed, for `Kind/spawn` errors.
    public var step: String? {
        if case .spawn(let step, _) = reason { return step }
        return nil
    }

    /// libuv's negative errno for `Kind/system` errors (and the errno behind the typed kinds).
    public var errnoCode: Int32? {
        switch reason {
        case .system(_, let code), .spawn(_, let code): code
        case .notFound: UV_ENOENT.rawValue
        case .connectionRefused: UV_ECONNREFUSED.rawValue
        case .addressInUse: UV_EADDRINUSE.rawValue
        case .pathTooLong: UV_ENAMETOOLONG.rawValue
        case .tls, .certificate: UV_EPROTO.rawValue
        case .closed: nil
        }
    }

    /// What went wrong and what to do about it, for logs and users.
    public var message: String {
        switch reason {
        case .pathTooLong(let path, let limit):
            "socket path is \(path.utf8.count) bytes, over the limit of \(limit) (libuv would silently truncate it): "
                + "use a shorter directory, e.g. under /run or /tmp (\(path))"
        case .addressInUse(let path) where path.hasPrefix("tcp:"):
            "address in use: another socket already listens on \(path); stop that server or choose another port"
        case .addressInUse(let path):
            "address in use: a server already answers at \(path), or a file that is not a socket is there; "
                + "stop that server or remove the file"
        case .connectionRefused:
            "connection refused: a socket file exists but nothing listens on it (is the service running?)"
        case .notFound:
            "not found (ENOENT): no socket or file at that path; check the path and that the service has started"
        case .closed:
            "closed: the connection or event loop was closed before the operation completed"
        case .system(let operation, let code):
            "\(operation) failed: \(Self.name(of: code)) (\(Self.message(of: code)))"
        case .tls(let message), .certificate(let message):
            message
        case .spawn(let step, let code):
            "spawn: \(step): \(Self.name(of: code)) (\(Self.message(of: code)))"
        }
    }

    /// The path and its limit, the operation, the step and the errno, as far as the error has them.
    public var details: [ErrorDetail] {
        var details: [ErrorDetail] = []
        switch reason {
        case .pathTooLong(let path, let limit):
            details = [ErrorDetail("path", path), ErrorDetail("limit", String(limit))]
        case .addressInUse(let path):
            details = [ErrorDetail("path", path)]
        case .system(let operation, _):
            details = [ErrorDetail("operation", operation)]
        case .spawn(let step, _):
            details = [ErrorDetail("step", step)]
        case .connectionRefused, .notFound, .closed, .tls, .certificate:
            break
        }
        if let errnoCode { details.append(ErrorDetail("errno", String(errnoCode))) }
        return details
    }

    // The `_r` variants: plain uv_err_name/uv_strerror leak memory for unknown codes.
    private static func name(of code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        _ = uv_err_name_r(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func message(of code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        _ = uv_strerror_r(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension ErrorKind where Domain == EventLoopError {
    /// See ``EventLoopError/pathTooLong(_:limit:)``.
    public static var pathTooLong: Self { Self("pathTooLong") }
    /// See ``EventLoopError/addressInUse(_:)``.
    public static var addressInUse: Self { Self("addressInUse") }
    /// See ``EventLoopError/connectionRefused``.
    public static var connectionRefused: Self { Self("connectionRefused") }
    /// See ``EventLoopError/notFound``.
    public static var notFound: Self { Self("notFound") }
    /// See ``EventLoopError/closed``.
    public static var closed: Self { Self("closed") }
    /// See ``EventLoopError/system(operation:code:)``.
    public static var system: Self { Self("system") }
    /// See ``EventLoopError/tls(_:)``.
    public static var tls: Self { Self("tls") }
    /// See ``EventLoopError/spawn(step:code:)``.
    public static var spawn: Self { Self("spawn") }
}
