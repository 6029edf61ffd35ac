#if canImport(Glibc)
import Glibc
#endif
import VerticalsEventLoop

/// The TLS context of one role, made again whenever the certificate, key or CA file changes:
/// cert-manager rotates files and sends no signal, so a daemon looks (``current()``) — on a timer
/// for its listener, at each new connection for its client. A change that does not load (a key
/// written before its certificate, say) keeps the previous context until the files agree.
/// Loop-confined, like its owner.
package final class TLSReloader {
    package let files: TLSFiles
    package let role: TLSContext.Role
    private var context: TLSContext?
    private var signature: [Int] = []

    package init(files: TLSFiles, role: TLSContext.Role) {
        self.files = files
        self.role = role
    }

    /// The context for the files as they are now; `changed` is true when it was made again.
    package func current() throws(TLSError) -> (context: TLSContext, changed: Bool) {
        let now = Self.signature(of: [files.certificate, files.key, files.authority])
        if let context, now == signature { return (context, false) }
        do {
            let fresh = try TLSContext(files: files, role: role)
            context = fresh
            signature = now
            return (fresh, true)
        } catch {
            if let context { return (context, false) } // keep serving with the files that loaded
            throw error
        }
    }

    /// Inode, size and modification time of each file: what a rotation (rename or rewrite) changes.
    package static func signature(of paths: [String]) -> [Int] {
        paths.flatMap { path -> [Int] in
            var info = stat()
            guard stat(path, &info) == 0 else { return [-1] }
            return [Int(info.st_ino), Int(info.st_size), info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
        }
    }
}
