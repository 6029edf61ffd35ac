import Glibc
import IOInterface
import VerticalsContract
import VerticalsWire

/// The session token `svc-supervisor login` keeps for the current user, so `call` (and `open`)
/// can present it: `$XDG_STATE_HOME/verticals/session.json`, else
/// `~/.local/state/verticals/session.json`, mode 0600 in a 0700 folder, holding the
/// ``Identity/Session`` in its JSON form. Written to a temporary file and renamed, so a
/// reader sees the old session or the new one, never half of one.
struct StoredLogin {
    /// The file's path.
    let path: String

    /// The store for `environment` (XDG base directory rules; `HOME` when `XDG_STATE_HOME` is unset or relative).
    static func forCurrentUser(environment: [String: String]) throws(CLIError) -> StoredLogin {
        let folder: String
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            folder = state + "/verticals"
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            folder = home + "/.local/state/verticals"
        } else {
            throw CLIError(status: 78, "neither XDG_STATE_HOME nor HOME is an absolute path: cannot place the login")
        }
        return StoredLogin(path: folder + "/session.json")
    }

    /// The stored session, or nil when nobody is logged in.
    func load() throws(CLIError) -> Identity.Session? {
        guard let file = fopen(path, "r") else {
            if errno == ENOENT { return nil }
            throw CLIError(status: 74, "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        do {
            return try Identity.Session(json: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw CLIError(status: 74, "\(path) is not a stored login (\(error)): svc-supervisor login EMAIL again")
        }
    }

    /// Stores `session`, replacing any earlier one.
    func save(_ session: Identity.Session) throws(CLIError) {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        try makeFolders(folder)
        let text: String
        do { text = try session.jsonString(pretty: true) + "\n" } catch {
            throw CLIError(status: 70, "cannot print the session: \(error)")
        }
        let temporary = "\(path).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw CLIError(status: 73, "cannot write \(temporary): \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CLIError(status: 73, "cannot write \(path): \(reason)")
        }
    }

    /// Forgets the stored session; true when there was one.
    @discardableResult
    func delete() throws(CLIError) -> Bool {
        if unlink(path) == 0 { return true }
        if errno == ENOENT { return false }
        throw CLIError(status: 74, "cannot remove \(path): \(String(cString: strerror(errno)))")
    }

    /// Creates `folder` and its parents, the last one 0700 (a token is a password for a day).
    private func makeFolders(_ folder: String) throws(CLIError) {
        var current = ""
        for component in folder.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                throw CLIError(status: 73, "cannot create \(current): \(String(cString: strerror(errno)))")
            }
        }
    }
}
