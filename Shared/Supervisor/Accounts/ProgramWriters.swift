#if canImport(Glibc)
import Glibc
import VerticalsSupervisorClient
#endif
import CSpawn

/// Who could change the code a service's user runs: the program, every folder the path passes
/// through and every link on the way must belong to root or to that user, and be writable by no
/// one else. So must every file beside the program (a Swift program's libraries are looked for in
/// its own folder, `$ORIGIN`, before the system's), and a script's interpreter. A file or folder
/// with an access ACL is refused: its mode bits then show the ACL's mask, not who may write. A build in `/tmp/x` made by another user, or in
/// a checkout an ordinary user can write, would otherwise let that user run code as the vertical,
/// with its store and its key, now and at every restart.
///
/// So must the ELF interpreter and every folder the loader searches for the program's libraries
/// (`DT_RUNPATH`, `DT_RPATH`; see `ProgramWriters+Libraries.swift`).
///
/// A folder others may write passes only with its sticky bit set and an owner of root (`/tmp`):
/// there, only the owner of the entry below may rename or remove it, and that entry is checked
/// in turn. Group write passes only for group 0, whose members are root's own.
package enum ProgramWriters {
    /// Nil when only root and `uid` can change `path`, else the first file, folder or link
    /// someone else could change, and why.
    ///
    /// Walks the path as the kernel resolves it, one entry at a time, following each link where it
    /// leads: every folder it passes through and every link it reads is checked, so a link to a
    /// folder others may write is found even when the program's own folder is sound.
    static func problem(_ path: String, uid: UInt32) -> String? {
        if let problem = pathProblem(path, uid: uid) { return problem }
        guard let resolved = realpath(path, nil) else { return "\(path): \(SupervisorError.errnoText())" }
        let real = String(cString: resolved)
        free(resolved)
        if let problem = filesProblem(in: folder(of: real), of: path, uid: uid) { return problem }
        if let interpreter = interpreter(of: real), let problem = pathProblem(interpreter, uid: uid) {
            return "\(path) is a script run by \(interpreter): \(problem)"
        }
        return libraryProblem(of: real, uid: uid)
    }

    /// Why someone other than root and `uid` could change a file in `folder`, from which `path`
    /// loads code, or nil.
    static func filesProblem(in folder: String, of path: String, uid: UInt32) -> String? {
        for name in FolderEntries.names(in: folder.isEmpty ? "/" : folder) {
            if let problem = entryProblem("\(folder)/\(name)", of: path, uid: uid, isLast: true, besideProgram: true) {
                return problem
            }
        }
        return nil
    }

    /// The folder `path` is in ("" for `/`).
    static func folder(of path: String) -> String {
        String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    }

    /// ``problem(_:uid:)`` for the path alone: its links, folders and last entry (a folder root
    /// writes generated files into, as well as a program).
    package static func pathProblem(_ path: String, uid: UInt32) -> String? {
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
    private static func entryProblem(
        _ entry: String, of path: String, uid: UInt32, isLast: Bool, besideProgram: Bool = false
    ) -> String? {
        var info = stat()
        guard lstat(entry, &info) == 0 else {
            // One removed while the folder was read is no one's to change.
            return besideProgram && errno == ENOENT ? nil : "\(entry): \(SupervisorError.errnoText())"
        }
        if besideProgram && info.st_mode & S_IFMT == S_IFDIR { return nil } // only files are loaded from $ORIGIN
        guard info.st_uid == 0 || info.st_uid == uid else {
            return "\(entry) belongs to uid \(info.st_uid), who could replace \(path); give it to root"
        }
        let type = info.st_mode & S_IFMT
        if type == S_IFLNK { return nil } // a link's own mode means nothing; its folder is checked
        if vt_access_acl_size(entry) > 0 {
            return "\(entry) has an access ACL, which may let others write it (setfacl -b removes it)"
        }
        let isRootsStickyFolder = type == S_IFDIR && info.st_mode & S_ISVTX != 0 && info.st_uid == 0 && !isLast
        if info.st_mode & 0o002 != 0 && !isRootsStickyFolder {
            return "\(entry) may be written by any user (mode \(modeText(info))), who could replace \(path)"
        }
        if info.st_mode & 0o020 != 0 && info.st_gid != 0 {
            return "\(entry) may be written by group \(info.st_gid) (mode \(modeText(info))), who could replace \(path)"
        }
        return nil
    }

    /// The interpreter a `#!` line at the start of `path` names, or nil when it has none.
    private static func interpreter(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var head = [UInt8](repeating: 0, count: 256)
        let count = read(descriptor, &head, head.count)
        guard count > 2, head[0] == UInt8(ascii: "#"), head[1] == UInt8(ascii: "!") else { return nil }
        let line = head[2..<count].prefix { $0 != UInt8(ascii: "\n") }
        let word = line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            .prefix { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
        return word.isEmpty ? nil : String(decoding: word, as: UTF8.self)
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
