#if canImport(Glibc)
import Glibc
#endif
import VerticalsWire

/// A small file replaced whole: written beside its place under a name of this process, then
/// renamed over it, so a reader sees the old file or the new one, never half of either.
///
/// The staging file is always a new one (`O_EXCL | O_NOFOLLOW` after removing any leftover),
/// so a link planted at its name by someone who may write the folder is replaced, never written
/// through. Its mode is set exactly (the umask does not narrow or widen it) before a byte is
/// written, and its group before it is renamed into place.
///
/// ```swift
/// try ReplacedFile.write(Array(text.utf8), to: "/run/verticals/pointer", mode: 0o640, group: gid)
/// ```
public enum ReplacedFile {
    /// Replaces the file at `path` with `bytes`, mode `mode`, in group `group` when given (root
    /// only); `durable` flushes the new file to disk before it takes the name. Throws, naming
    /// `path` and the first step that failed, leaving the old file and no staging file.
    public static func write(
        _ bytes: [UInt8], to path: String, mode: mode_t, group: gid_t? = nil, durable: Bool = false
    ) throws(SupervisorError) {
        let staging = "\(path).\(getpid()).tmp"
        unlink(staging)
        let descriptor = open(staging, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw failure(path, SupervisorError.errnoText()) }
        var reason: String?
        if fchmod(descriptor, mode) != 0 {
            reason = SupervisorError.errnoText()
        } else if let group, fchown(descriptor, uid_t.max, group) != 0 {
            reason = SupervisorError.errnoText()
        } else if let problem = writeAll(bytes, to: descriptor) {
            reason = problem
        } else if durable, fsync(descriptor) != 0 {
            reason = SupervisorError.errnoText()
        }
        if close(descriptor) != 0, reason == nil { reason = SupervisorError.errnoText() }
        if reason == nil, rename(staging, path) != 0 { reason = SupervisorError.errnoText() }
        if let reason {
            unlink(staging)
            throw failure(path, reason)
        }
    }

    /// Writes every byte, through short writes and signals; the reason of the first failure.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> String? {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count < 0 ? SupervisorError.errnoText() : "no byte written" }
            offset += count
        }
        return nil
    }

    private static func failure(_ path: String, _ reason: String) -> SupervisorError {
        SupervisorError(.system, "cannot write \(path): \(reason)", details: [ErrorDetail("path", path)])
    }
}
