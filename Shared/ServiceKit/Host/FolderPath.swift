#if canImport(Glibc)
import Glibc
#endif

/// `mkdir -p` for the folders a daemon makes itself (its socket folder, a store's state folder).
package enum FolderPath {
    /// Makes each missing folder of `path` with `mode`, from the first component down (a relative
    /// path from the working directory); the folder that could not be made and why
    /// (`strerror`), or nil once every one exists.
    package static func make(_ path: String, mode: mode_t) -> (folder: String, reason: String)? {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, mode) != 0 && errno != EEXIST {
                return (current, String(cString: strerror(errno)))
            }
        }
        return nil
    }
}
