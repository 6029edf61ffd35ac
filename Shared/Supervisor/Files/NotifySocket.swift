#if canImport(Glibc)
import Glibc
#endif
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsSupervisorClient
import VerticalsWire

/// One `sd_notify` datagram: who sent it (from `SCM_CREDENTIALS`) and its assignments.
///
/// The sender is what the kernel vouches for, never what the text claims: `MAINPID=` is an
/// assignment like any other, and the engine credits a datagram only to the service whose main
/// process the kernel names, running as that service's uid.
struct NotifyMessage: Equatable {
    /// The sender's pid, as the kernel saw it (`SO_PASSCRED`); nil if the datagram carried none.
    var senderPID: Int32?
    /// The sender's uid, as the kernel saw it; nil if the datagram carried none.
    var senderUID: UInt32?
    /// `KEY=VALUE` lines, in order (`READY=1`, `STATUS=…`, `WATCHDOG=1`, `STOPPING=1`, `MAINPID=…`),
    /// each value made printable (``PrintableText``): no control character or escape sequence
    /// reaches `status` or a log from here.
    var assignments: [(key: String, value: String)]

    /// Parses the text of a datagram; lines without `=` are ignored, as systemd does.
    init(senderPID: Int32?, senderUID: UInt32? = nil, text: String) {
        self.senderPID = senderPID
        self.senderUID = senderUID
        assignments = text.split(separator: "\n").compactMap { line in
            guard let equals = line.firstIndex(of: "=") else { return nil }
            return (String(line[..<equals]), PrintableText.of(line[line.index(after: equals)...]))
        }
    }

    /// The last value of `key`, if sent.
    subscript(key: String) -> String? {
        assignments.last { $0.key == key }?.value
    }

    static func == (lhs: NotifyMessage, rhs: NotifyMessage) -> Bool {
        lhs.senderPID == rhs.senderPID && lhs.senderUID == rhs.senderUID
            && lhs.assignments.elementsEqual(rhs.assignments) { $0 == $1 }
    }
}

/// The supervisor's `NOTIFY_SOCKET`: one datagram socket for every child, read on the loop
/// through an ``FDPoll`` (libuv has no datagram type for `AF_UNIX`), with `SO_PASSCRED` so
/// the kernel attaches its sender's pid and uid to each datagram, whether the sender sent
/// credentials or not. Any fds a datagram carries (`systemd-notify` sends `BARRIER=1` with one)
/// are closed at once.
///
/// The file is 0666: services run as users of their own, and any local user may send. That is
/// harmless because the engine believes only the kernel's credentials (see
/// ``SupervisorEngine/received(_:)``).
final class NotifySocket {
    let path: String
    private let poll: FDPoll
    private static let passCredentials: Int32 = 16 // SO_PASSCRED (hidden behind _GNU_SOURCE)

    /// Binds `path` and calls `onMessage` on the loop thread for every datagram. Call on the loop thread.
    init(path: String, loop: EventLoop, onMessage: @escaping (NotifyMessage) -> Void) throws(SupervisorError) {
        guard path.utf8.count <= EventLoopError.maxSocketPathLength else {
            throw SupervisorError(
                .pathTooLong, "notify socket path \(path) is too long for a Unix socket: use a shorter --run-dir",
                details: [ErrorDetail("path", path)])
        }
        let kind = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let fd = socket(AF_UNIX, kind, 0)
        guard fd >= 0 else { throw SupervisorError.system("socket for \(path)", path: path) }
        var on: Int32 = 1
        var address = ListeningSocket.address(path)
        unlink(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0,
            setsockopt(fd, SOL_SOCKET, Self.passCredentials, &on, socklen_t(MemoryLayout<Int32>.size)) == 0
        else {
            let error = SupervisorError.system("cannot bind the notify socket \(path)", path: path)
            Glibc.close(fd)
            throw error
        }
        // Children may run as other users (`user =`): let any of them send.
        chmod(path, 0o666)
        self.path = path
        do {
            // At most `readLimit` datagrams a wake-up: anyone may send, and a flood must not keep
            // the loop from the rest; what waits is read at the loop's next turn.
            poll = try FDPoll(fd: fd, on: loop) {
                for _ in 0..<NotifySocket.readLimit {
                    guard let message = NotifySocket.receive(fd) else { return }
                    onMessage(message)
                }
            }
        } catch {
            Glibc.close(fd)
            unlink(path)
            throw SupervisorError(.system, "cannot watch the notify socket: \(error)", cause: error)
        }
    }

    /// How many datagrams one wake-up of the loop reads at most.
    static let readLimit = 64

    /// Stops listening and removes the socket file.
    func close() {
        poll.close()
        unlink(path)
    }

    /// Reads one datagram, or nil when none is waiting.
    private static func receive(_ fd: Int32) -> NotifyMessage? {
        NotifyDatagram.receive(from: fd).map {
            NotifyMessage(senderPID: $0.sender?.pid, senderUID: $0.sender?.uid, text: $0.text)
        }
    }
}
