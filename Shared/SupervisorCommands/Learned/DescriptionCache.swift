import Glibc
import VerticalsContract
import VerticalsSupervisorClient
import VerticalsWire

/// The descriptions (`daemon.describe`) the CLI learned, one file per endpoint (socket path), so
/// that a call with a warm cache is one round trip: `$XDG_CACHE_HOME/verticals/describe/`, else
/// `~/.cache/verticals/describe/` (``file(for:)`` names the file). Each file holds the description's wire bytes (compact and
/// quick to decode), each replaced whole (`ReplacedFile`), so a reader sees a whole one.
///
/// Only ever a hint: a file that does not decode is ignored (and replaced at the next store), a
/// folder that cannot be written means no cache, and ``LearnedContracts`` refreshes an entry
/// whenever an answer shows it stale. A folder that is not this user's alone
/// (``RootPlacedSocket/isOwnFolder(_:euid:)``: root with another user's `HOME`, a link on the way)
/// is neither read nor written: what it holds would steer this user's calls.
///
/// Bounded: at most ``maxFiles`` descriptions (a store past it removes the least recently
/// written), each read only up to ``maxFileBytes``, the frame limit a description arrived within.
struct DescriptionCache {
    /// The folder, or nil when neither `XDG_CACHE_HOME` nor `HOME` is an absolute path (no cache).
    let folder: String?

    /// The most descriptions kept: far more than the verticals of the suites one user calls.
    static let maxFiles = 256
    /// The longest file read: a description is one frame's body, so no longer than a frame.
    static let maxFileBytes = FrameDecoder.defaultMaxFrameSize

    /// The cache of the current user (XDG base directory rules).
    static func forCurrentUser(environment: [String: String]) -> DescriptionCache {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return DescriptionCache(folder: cache + "/verticals/describe")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return DescriptionCache(folder: home + "/.cache/verticals/describe")
        }
        return DescriptionCache(folder: nil)
    }

    /// The file of the daemon at `endpoint`: its absolute socket path with `%` and `/` escaped
    /// (`%2Frun%2Fverticals%2Fclinics.sock.describe`), readable at a glance; a path too long for a
    /// file name (a socket path is at most 107 bytes, so only one full of slashes) by its hash.
    func file(for endpoint: String) -> String? {
        guard let folder else { return nil }
        let absolute = Self.absolute(endpoint)
        var name = absolute.replacing("%", with: "%25").replacing("/", with: "%2F")
        if name.utf8.count > 200 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325 // FNV-1a, 64 bits
            for byte in absolute.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            name = "hashed-" + String(hash, radix: 16)
        }
        return "\(folder)/\(name).describe"
    }

    /// The verticals with a description cached for a socket in `folder` (`NAME.sock`), sorted.
    func names(inSocketFolder folder: String) -> [String] {
        guard let cacheFolder = self.folder, RootPlacedSocket.isOwnFolder(cacheFolder),
            let prefix = file(for: folder + "/")?.dropLast(".describe".count)
        else {
            return []
        }
        let escapedFolder = String(prefix.dropFirst(cacheFolder.count + 1))
        return FolderEntries.names(in: cacheFolder).compactMap { entry -> String? in
            guard entry.hasPrefix(escapedFolder), entry.hasSuffix(".sock.describe") else { return nil }
            let name = entry.dropFirst(escapedFolder.count).dropLast(".sock.describe".count)
            return name.isEmpty || name.contains("%") ? nil : String(name)
        }.sorted()
    }

    /// The description stored for `endpoint`; nil when there is none or it does not decode.
    func load(endpoint: String) -> Daemon.Description? {
        guard let folder, RootPlacedSocket.isOwnFolder(folder), let path = file(for: endpoint),
            let bytes = Self.contents(of: path)
        else { return nil }
        return try? Daemon.Description(decoding: bytes)
    }

    /// Stores `description` for `endpoint`, replacing what was there; false (and no cache)
    /// when the folder cannot be written.
    @discardableResult
    func store(_ description: Daemon.Description, endpoint: String) -> Bool {
        guard let folder, let path = file(for: endpoint) else { return false }
        var current = ""
        for component in folder.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST { return false }
        }
        guard RootPlacedSocket.isOwnFolder(folder) else { return false }
        guard (try? ReplacedFile.write(description.encodedBody(), to: path, mode: 0o600)) != nil else { return false }
        Self.prune(folder, keeping: Self.maxFiles)
        return true
    }

    /// Removes the least recently written descriptions of `folder` past the `keeping` newest.
    static func prune(_ folder: String, keeping: Int) {
        let files = FolderEntries.names(in: folder).filter { $0.hasSuffix(".describe") }
        guard files.count > keeping else { return }
        let written = files.map { name -> (name: String, seconds: Int) in
            var status = stat()
            let seconds = lstat("\(folder)/\(name)", &status) == 0 ? Int(status.st_mtim.tv_sec) : 0
            return (name, seconds)
        }
        for old in written.sorted(by: { $0.seconds < $1.seconds }).prefix(files.count - keeping) {
            unlink("\(folder)/\(old.name)")
        }
    }

    /// The whole file at `path`, or nil when it cannot be read.
    static func contents(of path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count < 0 { return nil }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            // Longer than any description: not one this cache wrote.
            if bytes.count > maxFileBytes { return nil }
        }
    }

    /// `path` made absolute against the working directory.
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        return ProgramPaths.currentDirectory() + "/" + (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
    }
}
