#if canImport(Glibc)
import Glibc
import VerticalsSupervisorClient
#endif

/// Who could change a program before it runs as a service's user: the program, every folder
/// the path passes through and every link on the way must belong to root or to that user, and
/// be writable by no one else. A build in `/tmp/x` made by another user, or in
/// a checkout an ordinary user can write, would otherwise let that user run code as the vertical,
/// with its store and its key, now and at every restart.
///
/// A folder others may write passes only with its sticky bit set and an owner of root (`/tmp`):
/// there, only the owner of the entry below may rename or remove it, and that entry is checked
/// in turn. Group write passes only for group 0, whose members are root's own.
enum ProgramWriters {
    /// Nil when only root and `uid` can change `path`, else the first file, folder or link
    /// someone else could change, and why.
    ///
    /// Walks the path as the kernel resolves it, one entry at a time, following each link where it
    /// leads: every folder it passes through and every link it reads is checked, so a link to a
    /// folder others may write is found even when the program's own folder is sound.
    static func problem(_ path: String, uid: UInt32) -> String? {
        guard path.hasPrefix("/") else { return "\(path) is not an absolute path" }
        if let problem = entryProblem("/", of: path, uid: uid, isLast: false) { return problem }
        var pending = path.split(separator: "/").map(String.init).reversed() as [String]
        var current = ""
        var links = 0
        while let component = pending.popLast() {
            if component == "." { continue }
            if component == ".." {
                current = String(current[..<(current.lastIndex(of: "/") ?? current.startIndex)])
                continue
            }
            let entry = current + "/" + component
            if let problem = entryProblem(entry, of: path, uid: uid, isLast: pending.isEmpty) { return problem }
            guard let target = linkTarget(entry) else {
                current = entry
                continue
            }
            links += 1
            guard links <= 40 else { return "\(path): too many levels of links" }
            if target.hasPrefix("/") { current = "" }
            pending += target.split(separator: "/").map(String.init).reversed()
        }
        return nil
    }

    /// Why someone other than root and `uid` could change `entry` (on the way to `path`), or nil.
    private static func entryProblem(_ entry: String, of path: String, uid: UInt32, isLast: Bool) -> String? {
        var info = stat()
        guard lstat(entry, &info) == 0 else { return "\(entry): \(SupervisorError.errnoText())" }
        guard info.st_uid == 0 || info.st_uid == uid else {
            return "\(entry) belongs to uid \(info.st_uid), who could replace \(path); give it to root"
        }
        let type = info.st_mode & S_IFMT
        if type == S_IFLNK { return nil }  // a link's own mode means nothing; its folder is checked
        let isRootsStickyFolder = type == S_IFDIR && info.st_mode & S_ISVTX != 0 && info.st_uid == 0 && !isLast
        if info.st_mode & 0o002 != 0 && !isRootsStickyFolder {
            return "\(entry) may be written by any user (mode \(modeText(info))), who could replace \(path)"
        }
        if info.st_mode & 0o020 != 0 && info.st_gid != 0 {
            return "\(entry) may be written by group \(info.st_gid) (mode \(modeText(info))), who could replace \(path)"
        }
        return nil
    }

    /// Where the link at `entry` points, or nil when it is not a link.
    private static func linkTarget(_ entry: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(entry, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func modeText(_ info: stat) -> String {
        "0" + String(info.st_mode & 0o7777, radix: 8)
    }
}
