import Glibc
import VerticalsContract
import VerticalsClient
import VerticalsSupervisorClient
import VerticalsWire

/// The session token `svc-supervisor login` keeps for the current user, so `call` (and `open`)
/// can present it: `$XDG_STATE_HOME/verticals/session.json`, else
/// `~/.local/state/verticals/session.json`, mode 0600 in a 0700 folder, holding the Output of
/// the operation that issued it (marked `issuesSession`, e.g. `identity.login`) in its JSON
/// form: an object with a `token` string, and whatever else the session says (`expiresAt`).
/// Replaced whole (`ReplacedFile`), so a
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
            throw CLIError(
                .misconfigured, status: 78,
                "neither XDG_STATE_HOME nor HOME is an absolute path: cannot place the login")
        }
        return StoredLogin(path: folder + "/session.json")
    }

    /// The stored session, or nil when nobody is logged in.
    func load() throws(CLIError) -> StoredSession? {
        try checkFolder()
        guard let text = WholeFile.read(path) else {
            if errno == ENOENT { return nil }
            throw CLIError.system(status: 74, "cannot read \(path)", path: path)
        }
        guard let document = try? JSONValue(parsing: text),
            let session = StoredSession(document)
        else {
            throw CLIError(
                .malformed, status: 74,
                "\(path) is not a stored login (no \"token\" string): svc-supervisor login again",
                details: [ErrorDetail("path", path)])
        }
        return session
    }

    /// Stores `session` (the issuing operation's Output as JSON), replacing any earlier one.
    func save(_ session: StoredSession) throws(CLIError) {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        try makeFolders(folder)
        try checkFolder()
        let text = session.document.serialized(pretty: true) + "\n"
        do {
            try ReplacedFile.write(Array(text.utf8), to: path, mode: 0o600, durable: true)
        } catch {
            throw CLIError(.system, status: 73, error.description, details: [ErrorDetail("path", path)], cause: error)
        }
    }

    /// Forgets the stored session; true when there was one.
    @discardableResult
    func delete() throws(CLIError) -> Bool {
        if unlink(path) == 0 { return true }
        if errno == ENOENT { return false }
        throw CLIError.system(status: 74, "cannot remove \(path)", path: path)
    }

    /// Throws unless the file's folder, when there is one, is this user's alone
    /// (``RootPlacedSocket/isOwnFolder(_:euid:)``): a token read from, or written to, a folder
    /// another user may write (root with another user's `HOME`) would be theirs to plant or take.
    private func checkFolder() throws(CLIError) {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        guard access(folder, F_OK) == 0, !RootPlacedSocket.isOwnFolder(folder) else { return }
        throw CLIError(
            .untrusted, status: 77,
            "\(folder) is not a folder of this user's alone (uid \(geteuid())), in folders nobody else may write: "
                + "the login is neither read nor kept there. Run as the user whose HOME it is, or set XDG_STATE_HOME",
            details: [ErrorDetail("path", folder)])
    }

    /// Creates `folder` and its parents, the last one 0700 (a token is a password for a day).
    private func makeFolders(_ folder: String) throws(CLIError) {
        var current = ""
        for component in folder.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                throw CLIError.system(status: 73, "cannot create \(current)", path: current)
            }
        }
    }
}

/// A session as ``StoredLogin`` keeps it: the issuing operation's Output as JSON, and its token.
struct StoredSession {
    /// The Output, as JSON.
    let document: JSONValue
    /// Its `token`.
    let token: String

    /// The session `document` holds; nil when it is not an object with a `token` string.
    init?(_ document: JSONValue) {
        guard let token = document.string(OperationMark.sessionTokenField) else { return nil }
        self.document = document
        self.token = token
    }
}
