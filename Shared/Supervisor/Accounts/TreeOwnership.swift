#if canImport(Glibc)
import Glibc
import VerticalsSupervisorClient
#endif
import VerticalsWire

/// `chown -R` of a folder a service's user already owns or is about to (its state and runtime
/// folders), done from file descriptors so the user cannot steer root elsewhere.
///
/// A process of that user may still run (one that escaped the kill of its group), and may swap a
/// folder for a symbolic link between two steps, or hard-link a file of root's into its folder.
/// So every entry is opened without following a link (`O_PATH|O_NOFOLLOW`), changed through that
/// descriptor (`fchownat(AT_EMPTY_PATH)`, which never follows one), a folder is entered by
/// `openat(O_NOFOLLOW)` only when it is still the inode just changed, and a file with more than one
/// name that is not the user's already is left alone: its other name may be anywhere.
///
/// The walk is long on a large tree, so the engine runs it off its loop, and only where the top of
/// the tree shows it is needed (``isNeeded(_:uid:gid:)``): the top is changed last, so a walk cut
/// short is done again in full at the next start. It visits at most ``maximumEntries`` entries.
enum TreeOwnership {
    /// The most entries one walk visits: past it the walk stops, naming the folder.
    static let maximumEntries = 1_000_000

    /// Whether `path` must be walked to be `uid`:`gid`'s: its top is another's (or another
    /// group's). False when it does not exist (the start makes it, empty) or is not a folder.
    static func isNeeded(_ path: String, uid: UInt32, gid: UInt32) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return false }
        return info.st_uid != uid || info.st_gid != gid
    }

    /// `O_PATH` and `AT_EMPTY_PATH`, Linux's values: Swift's Glibc module leaves out what
    /// `<fcntl.h>` keeps behind `_GNU_SOURCE`.
    private static let pathOnly: Int32 = 0o10_000_000
    private static let emptyPath: Int32 = 0x1000

    /// Gives `path` and everything under it to `uid`:`gid`. `path` itself must not be a symbolic link.
    /// - Throws: ``SupervisorError`` naming the entry that cannot be changed.
    static func give(_ path: String, uid: UInt32, gid: UInt32) throws(SupervisorError) {
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else {
            throw SupervisorError.system(
                "cannot open \(path) to give it to uid \(uid) (a symbolic link is refused)", path: path)
        }
        defer { close(folder) }
        var visited = 0
        try giveEntries(of: folder, path, uid: uid, gid: gid, visited: &visited)
        // The top last: it says the walk is done (``isNeeded(_:uid:gid:)``).
        guard fchown(folder, uid, gid) == 0 else {
            throw SupervisorError.system("cannot give \(path) to uid \(uid)", path: path)
        }
    }

    /// Makes the folder `path` (not a link) its owner's alone, 0700, through its descriptor.
    /// - Throws: ``SupervisorError`` naming the folder.
    static func makePrivate(_ path: String) throws(SupervisorError) {
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0, fchmod(folder, 0o700) == 0 else {
            let failure = SupervisorError.system(
                "cannot make \(path) its owner's alone (a link is refused)", path: path)
            if folder >= 0 { close(folder) }
            throw failure
        }
        close(folder)
    }

    private static func giveEntries(
        of folder: Int32, _ path: String, uid: UInt32, gid: UInt32, visited: inout Int
    ) throws(SupervisorError) {
        for name in FolderEntries.names(inDescriptor: folder) {
            visited += 1
            guard visited <= maximumEntries else {
                throw SupervisorError(
                    .tooLarge,
                    "\(path) holds more than \(maximumEntries) entries: it is not given to uid \(uid) entry by entry; "
                        + "remove what the service left there, or chown it yourself",
                    details: [ErrorDetail("path", path)])
            }
            let entry = openat(folder, name, pathOnly | O_NOFOLLOW | O_CLOEXEC)
            guard entry >= 0 else { continue } // gone since the listing
            defer { close(entry) }
            var info = stat()
            guard fstat(entry, &info) == 0 else { continue }
            let isFolder = info.st_mode & S_IFMT == S_IFDIR
            if !isFolder && info.st_nlink > 1 && info.st_uid != uid { continue }
            guard fchownat(entry, "", uid, gid, emptyPath | AT_SYMLINK_NOFOLLOW) == 0 else {
                throw SupervisorError.system("cannot give \(path)/\(name) to uid \(uid)", path: "\(path)/\(name)")
            }
            guard isFolder else { continue }
            let inner = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard inner >= 0 else { continue } // swapped for a link or a file: not followed
            defer { close(inner) }
            var innerInfo = stat()
            guard fstat(inner, &innerInfo) == 0, innerInfo.st_ino == info.st_ino, innerInfo.st_dev == info.st_dev else {
                continue
            }
            try giveEntries(of: inner, "\(path)/\(name)", uid: uid, gid: gid, visited: &visited)
        }
    }
}
