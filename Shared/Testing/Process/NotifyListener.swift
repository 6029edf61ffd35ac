import Glibc
import VerticalsServiceKit
import VerticalsWire

/// A test's own `NOTIFY_SOCKET`: a datagram socket that collects sd_notify messages.
/// It closes any fd a message carries (systemd-notify may attach one with BARRIER=1).
public final class NotifyListener {
    public let path: String
    private let fd: Int32
    public private(set) var messages: [String] = []

    /// Binds a datagram socket at `path`; throws ``RawSocketError`` naming the call that failed.
    ///
    /// The descriptor is stored only once bound, so a failed init closes it exactly once (see
    /// ``RawClient/init(path:receiveTimeout:)`` for why a stored one would be closed twice).
    public init(path: String) throws {
        self.path = path
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw RawSocketError("socket for the notify listener at \(path)") }
        let bound = withUnixSocketAddress(path) { bind(descriptor, $0, $1) }
        guard bound == 0 else {
            let error = RawSocketError("bind \(path)")
            close(descriptor)
            throw error
        }
        fd = descriptor
    }

    /// Receives messages until one contains `assignment` (e.g. `READY=1`) or `timeout` passes.
    public func waitFor(_ assignment: String, timeout: Duration = .seconds(10)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if messages.contains(where: { $0.split(separator: "\n").contains(Substring(assignment)) }) { return true }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            receiveOne()
        }
        return messages.contains(where: { $0.split(separator: "\n").contains(Substring(assignment)) })
    }

    private func receiveOne() {
        if let datagram = NotifyDatagram.receive(from: fd), !datagram.text.isEmpty { messages.append(datagram.text) }
    }

    deinit { close(fd) }
}

/// A raw socket call in a test helper failed: which call, and errno's words. Its code is
/// `systemCallFailed`, with errno's number as the detail `errno`.
public struct RawSocketError: CodedError {
    /// What kind of failure it is.
    public typealias Code = ErrorKind<RawSocketError>

    /// `systemCallFailed`.
    public let code: Code
    /// The call, and errno's words.
    public let message: String
    /// errno's number, as the detail `errno`.
    public let details: [ErrorDetail]

    /// `what` failed with the current errno.
    public init(_ what: String) {
        let number = errno
        code = .systemCallFailed
        message = "\(what): \(String(cString: strerror(number)))"
        details = [ErrorDetail("errno", "\(number)")]
    }
}

extension ErrorKind where Domain == RawSocketError {
    /// A socket call failed; the detail `errno` says why.
    public static var systemCallFailed: Self { Self("systemCallFailed") }
}
