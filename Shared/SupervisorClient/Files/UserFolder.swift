#if canImport(Glibc)
import Glibc
#endif
import VerticalsWire

/// A folder only its user may write in: where a user's `up` leaves its suite pointer
/// (``SuitePointer``). A folder in `/tmp` may have been made first by anyone, under the name the
/// user expects, to hand the user's CLI a pointer to a suite of theirs; so the folder counts only
/// when it is a folder (not a link to one), owned by the user, and writable by nobody else.
package enum UserFolder {
    /// Whether `path` is a folder of `uid`'s that no other user may write in.
    package static func isPrivate(_ path: String, to uid: uid_t) -> Bool {
        problem(path, uid: uid) == nil
    }

    /// Makes `path` (mode 0700) when it is missing, and throws unless it is then a private folder
    /// of `uid`'s; its parent must exist. Never follows a link: one in its place is refused.
    package static func make(_ path: String, for uid: uid_t) throws(SupervisorError) {
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw SupervisorError.system("cannot create \(path)", path: path)
        }
        if let problem = problem(path, uid: uid) {
            throw SupervisorError(
                .notOwned,
                "\(path) \(problem), so another user could leave notes in it: remove it, or set XDG_RUNTIME_DIR to a folder of yours",
                details: [ErrorDetail("path", path)])
        }
    }

    /// What keeps `path` from being a private folder of `uid`'s, in words; nil when nothing does.
    static func problem(_ path: String, uid: uid_t) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return "cannot be read (\(SupervisorError.errnoText()))" }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: break
        case S_IFLNK: return "is a symbolic link"
        default: return "is not a folder"
        }
        guard info.st_uid == uid else { return "belongs to uid \(info.st_uid), not \(uid)" }
        guard info.st_mode & 0o022 == 0 else {
            return "is writable by others (mode 0\(String(info.st_mode & 0o7777, radix: 8)))"
        }
        return nil
    }
}
