import CLibUV
import Glibc

/// Who is at the other end of a Unix socket, as the kernel saw it at connect time (`SO_PEERCRED`).
public struct PeerCredentials: Sendable, Equatable, CustomStringConvertible {
    /// The peer's process id (in our pid namespace; 0 if it lives outside it).
    public var pid: Int32
    /// The peer's effective user id.
    public var uid: UInt32
    /// The peer's effective group id.
    public var gid: UInt32

    /// Credentials with the given ids.
    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// "pid P uid U gid G", for logs.
    public var description: String { "pid \(pid) uid \(uid) gid \(gid)" }

    /// Reads `SO_PEERCRED` from a connected `AF_UNIX` socket.
    static func read(fromSocket fd: Int32) -> PeerCredentials? {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; }: three 32-bit fields. Glibc hides the
        // struct behind _GNU_SOURCE, so read it as three words instead.
        var words: [UInt32] = [0, 0, 0]
        var length = socklen_t(MemoryLayout<UInt32>.size * 3)
        let status = words.withUnsafeMutableBytes { getsockopt(fd, SOL_SOCKET, SO_PEERCRED, $0.baseAddress, &length) }
        guard status == 0, length == socklen_t(MemoryLayout<UInt32>.size * 3) else { return nil }
        return PeerCredentials(pid: Int32(bitPattern: words[0]), uid: words[1], gid: words[2])
    }
}
