#if canImport(Glibc)
import Glibc
#endif

/// Sends `sd_notify(3)` messages (`READY=1`, `STATUS=…`, `WATCHDOG=1`, `STOPPING=1`) to
/// `NOTIFY_SOCKET`, the datagram socket of systemd or svc-supervisor.
///
/// Without `NOTIFY_SOCKET` every call is a no-op, so a daemon started by hand behaves the same.
/// A path starting with `@` names a socket in the abstract namespace.
public final class Notifier: Sendable {
    private let address: String?

    /// A notifier for the `NOTIFY_SOCKET` in `environment`.
    public init(environment: [String: String]) {
        let path = environment["NOTIFY_SOCKET"] ?? ""
        address = path.isEmpty ? nil : path
    }

    /// Whether a service manager listens.
    public var isActive: Bool { address != nil }

    /// Sends one notification, e.g. `notify("READY=1", "STATUS=serving")`; returns whether it was sent.
    @discardableResult
    public func notify(_ assignments: String...) -> Bool {
        send(assignments.joined(separator: "\n"))
    }

    /// Sends a raw notification datagram.
    @discardableResult
    public func send(_ message: String) -> Bool {
        guard let address else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(address.utf8)
        let abstract = pathBytes.first == UInt8(ascii: "@")
        if abstract { pathBytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: socketAddress.sun_path)
        guard pathBytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count + (abstract ? 0 : 1))
        let sent = message.utf8CString.withUnsafeBufferPointer { text in
            withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, text.baseAddress, text.count - 1, Int32(MSG_NOSIGNAL), $0, length)
                }
            }
        }
        return sent >= 0
    }
}
