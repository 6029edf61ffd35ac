#if canImport(Glibc)
import Glibc
#endif

/// One `sd_notify` datagram as a listener reads it: its text and, on a socket with `SO_PASSCRED`,
/// the sender's pid and uid as the kernel saw them. Every descriptor it carried (`systemd-notify`
/// sends one with `BARRIER=1`) is closed as it is read. The supervisor's `NOTIFY_SOCKET` and a
/// test's listener read through it.
package struct NotifyDatagram: Sendable {
    /// The datagram's bytes as text.
    package let text: String
    /// The sender, from `SCM_CREDENTIALS`; nil when the datagram carried none.
    package let sender: (pid: Int32, uid: UInt32)?

    private static let credentialsType: Int32 = 2 // SCM_CREDENTIALS (hidden behind _GNU_SOURCE)
    private static let rightsType: Int32 = 1 // SCM_RIGHTS

    /// Reads one waiting datagram from `fd` without blocking; nil when none is waiting (or the
    /// read failed: the caller's poll fires again if more is waiting).
    package static func receive(from fd: Int32) -> NotifyDatagram? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var control = [UInt8](repeating: 0, count: 512)
        var sender: (pid: Int32, uid: UInt32)?
        let count = buffer.withUnsafeMutableBytes { data in
            control.withUnsafeMutableBytes { controlBytes in
                var vector = iovec(iov_base: data.baseAddress, iov_len: data.count)
                return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    var header = msghdr()
                    header.msg_iov = vectorPointer
                    header.msg_iovlen = 1
                    header.msg_control = controlBytes.baseAddress
                    header.msg_controllen = controlBytes.count
                    let received = recvmsg(fd, &header, Int32(MSG_DONTWAIT) | Int32(MSG_CMSG_CLOEXEC))
                    if received >= 0 { sender = readControl(header) }
                    return received
                }
            }
        }
        guard count >= 0 else { return nil }
        return NotifyDatagram(text: String(decoding: buffer[..<count], as: UTF8.self), sender: sender)
    }

    /// Returns the sender's pid and uid from `SCM_CREDENTIALS` and closes every fd of `SCM_RIGHTS`.
    private static func readControl(_ header: msghdr) -> (pid: Int32, uid: UInt32)? {
        guard let control = header.msg_control else { return nil }
        let headerSize = MemoryLayout<cmsghdr>.size
        var sender: (pid: Int32, uid: UInt32)?
        var offset = 0
        while offset + headerSize <= header.msg_controllen {
            let message = control.advanced(by: offset).assumingMemoryBound(to: cmsghdr.self).pointee
            let length = Int(message.cmsg_len)
            guard length >= headerSize, offset + length <= header.msg_controllen else { break }
            let data = control.advanced(by: offset + headerSize)
            if message.cmsg_level == SOL_SOCKET && message.cmsg_type == credentialsType
                && length - headerSize >= 12
            {
                // struct ucred { pid_t pid; uid_t uid; gid_t gid; }
                sender = (data.loadUnaligned(as: Int32.self), data.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
            } else if message.cmsg_level == SOL_SOCKET && message.cmsg_type == rightsType {
                let fdCount = (length - headerSize) / MemoryLayout<Int32>.size
                for index in 0..<fdCount {
                    Glibc.close(data.loadUnaligned(fromByteOffset: index * 4, as: Int32.self))
                }
            }
            offset += (length + 7) & ~7
        }
        return sender
    }
}
