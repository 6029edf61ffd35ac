import Glibc

/// Whether a socket file can only have been put where it is by root (or by the CLI's own user):
/// the socket is theirs, and so is every folder on its path, none of which anyone else may write
/// (a world-writable folder such as `/tmp` counts when its sticky bit keeps others from renaming
/// what is not theirs), and no component is a symbolic link.
///
/// Such a socket was bound by root (svc-supervisor, systemd) and handed only to the service it was
/// bound for; nobody else can have planted it. ``TrustedCallee`` then trusts its listener whatever
/// its uid: the user a manifest's `user =` names, which the CLI cannot know without the supervisor.
package enum RootPlacedSocket {
    /// Whether the socket at `path` (absolute, or relative to the current folder) was placed by
    /// root or `euid`, by the rules above.
    package static func isRootPlaced(_ path: String, euid: UInt32 = geteuid()) -> Bool {
        isPlaced(path, type: S_IFSOCK, by: [0, euid])
    }

    /// Whether the file of `type` (`S_IFSOCK`, `S_IFREG`) at `path` is owned by one of `trusted`,
    /// as is every folder on its path, none of which anyone else may write (sticky folders
    /// excepted), with no symbolic link on the way: only `trusted` can have put it there.
    package static func isPlaced(_ path: String, type: mode_t, by trusted: Set<UInt32>) -> Bool {
        let absolute = path.hasPrefix("/") ? path : "\(currentFolder())/\(path)"
        let components = absolute.split(separator: "/").map(String.init).filter { $0 != "." }
        guard !components.isEmpty, !components.contains("..") else { return false }
        var info = stat()
        guard lstat(absolute, &info) == 0, info.st_mode & S_IFMT == type, trusted.contains(info.st_uid) else {
            return false
        }
        // A file anyone else may write says what they wrote.
        if type == S_IFREG, info.st_mode & (S_IWGRP | S_IWOTH) != 0 { return false }
        var folders = ["/"]
        var current = ""
        for component in components.dropLast() {
            current += "/" + component
            folders.append(current)
        }
        for folder in folders {
            guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, trusted.contains(info.st_uid) else {
                return false
            }
            let othersMayWrite = info.st_mode & (S_IWGRP | S_IWOTH) != 0
            if othersMayWrite, info.st_mode & S_ISVTX == 0 { return false }
        }
        return true
    }

    /// Whether `path` is a folder of `euid`'s alone: owned by it and writable by nobody else, in
    /// folders of root's or its own by the rules above, with no link on the way. Where the CLI keeps
    /// what it learned or a session (`~/.cache`, `~/.local/state`), so that what it reads back is
    /// what it wrote, even when run as root with another user's `HOME` (`sudo -E`).
    package static func isOwnFolder(_ path: String, euid: UInt32 = geteuid()) -> Bool {
        guard isPlaced(path, type: S_IFDIR, by: [0, euid]) else { return false }
        var info = stat()
        return lstat(path, &info) == 0 && info.st_uid == euid && info.st_mode & (S_IWGRP | S_IWOTH) == 0
    }

    /// The current folder, or `/nonexistent` when it cannot be read (nothing is then vouched for).
    private static func currentFolder() -> String {
        guard let folder = getcwd(nil, 0) else { return "/nonexistent" } // glibc allocates it
        defer { free(folder) }
        return String(cString: folder)
    }
}
