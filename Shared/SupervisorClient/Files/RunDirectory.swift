#if canImport(Glibc)
import Glibc
#endif
import VerticalsContract
import VerticalsWire

/// The layout of a supervisor's run directory (`.run/` under `make run`):
///
/// ```
/// <run>/supervisor.sock     the control socket (the Supervisor contract)
/// <run>/notify.sock         NOTIFY_SOCKET of every child (datagrams, SO_PASSCRED)
/// <run>/sockets/<name>.sock each service's listening socket, bound by the supervisor (0660, folder 0750)
/// <run>/logs/<name>.log     each service's stdout and stderr, line-stamped, rotated to <name>.log.1
/// <run>/pids/<name>         pid, process group and start time of the running child
/// <run>/state/<name>/       STATE_DIRECTORY
/// <run>/runtime/<name>/     RUNTIME_DIRECTORY
/// ```
public struct RunDirectory: Sendable, Equatable {
    /// The folder, absolute (children may run elsewhere).
    public let path: String

    /// The run directory at `path` (made absolute against the working directory).
    public init(_ path: String) {
        var absolute = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: 4096)
            let cwd =
                getcwd(&buffer, buffer.count).map { _ in
                    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                } ?? "."
            absolute = path == "." ? cwd : "\(cwd)/\(path.hasPrefix("./") ? String(path.dropFirst(2)) : path)"
        }
        while absolute.count > 1 && absolute.hasSuffix("/") { absolute.removeLast() }
        self.path = absolute
    }

    /// `<run>/supervisor.sock`.
    public var controlSocket: String { "\(path)/supervisor.sock" }
    /// `<run>/notify.sock`.
    public var notifySocket: String { "\(path)/notify.sock" }
    /// `<run>/sockets`: `VERTICALS_SOCKET_DIR` of every child.
    public var socketDirectory: String { "\(path)/sockets" }
    /// `<run>/logs`.
    public var logDirectory: String { "\(path)/logs" }
    /// `<run>/pids`.
    public var pidDirectory: String { "\(path)/pids" }

    /// The listening socket of service `name`.
    public func socket(for name: String) -> String { "\(socketDirectory)/\(name).sock" }
    /// The log file of service `name`.
    public func log(for name: String) -> String { "\(logDirectory)/\(name).log" }
    /// The pid record of service `name`.
    public func pidFile(for name: String) -> String { "\(pidDirectory)/\(name)" }
    /// `STATE_DIRECTORY` of service `name`.
    public func stateDirectory(for name: String) -> String { "\(path)/state/\(name)" }
    /// `RUNTIME_DIRECTORY` of service `name`.
    public func runtimeDirectory(for name: String) -> String { "\(path)/runtime/\(name)" }
    /// Where the supervisor keeps the stores of service `name` a restore replaced: a folder of the
    /// supervisor's own (0700), never the service's.
    public func replacedStoresDirectory(for name: String) -> String { "\(path)/replaced/\(name)" }
    /// Which vertical receives each kind of secret, as the running manifest's `receives` says:
    /// written by the supervisor, read by a CLI that may not ask it (the control socket is its user's).
    public var secretRecipientsFile: String { "\(path)/\(SecretRecipientsFile.name)" }

    /// Creates ``replacedStoresDirectory(for:)`` (0700) and checks it and its parent are this
    /// user's folders, not links.
    package func prepareReplacedStores(for name: String) throws(SupervisorError) -> String {
        let folder = replacedStoresDirectory(for: name)
        try Self.makeDirectories(folder, mode: 0o700)
        try Self.checkOwn("\(path)/replaced")
        try Self.checkOwn(folder)
        chmod("\(path)/replaced", 0o700)
        return folder
    }

    /// The socket folder's mode: `VerticalsManifest/ServiceAccounts/socketFolderMode`, which this
    /// library does not link (a test holds the two equal); root and the operator group only.
    public static let socketFolderMode: mode_t = 0o750

    /// Creates the folders (the socket folder with ``socketFolderMode``), and checks that each is a folder of
    /// this user's, not a link: the supervisor writes pid records, logs and sockets in them, and
    /// whoever owns one could point those writes anywhere.
    package func prepare() throws(SupervisorError) {
        try Self.makeDirectories(path, mode: 0o755)
        for folder in [logDirectory, pidDirectory, "\(path)/state", "\(path)/runtime"] {
            try Self.makeDirectories(folder, mode: 0o750)
        }
        try Self.makeDirectories(socketDirectory, mode: Self.socketFolderMode)
        for folder in [path, logDirectory, pidDirectory, "\(path)/state", "\(path)/runtime", socketDirectory] {
            try Self.checkOwn(folder)
        }
        chmod(socketDirectory, Self.socketFolderMode)
    }

    /// Throws unless `folder` is a folder (not a link to one) owned by this process's user.
    package static func checkOwn(_ folder: String) throws(SupervisorError) {
        var info = stat()
        guard lstat(folder, &info) == 0 else {
            throw SupervisorError.system("cannot read \(folder)", path: folder)
        }
        guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid() else {
            let what = info.st_mode & S_IFMT == S_IFLNK ? "is a symbolic link" : "belongs to uid \(info.st_uid)"
            throw SupervisorError(
                .notOwned,
                "\(folder) \(what), not a folder of yours (uid \(geteuid())): its owner could make the supervisor "
                    + "write through links in it. Remove it, or choose another run directory",
                details: [ErrorDetail("path", folder)])
        }
    }

    /// Creates the folders of service `name`.
    package func prepare(service name: String) throws(SupervisorError) {
        try Self.makeDirectories(stateDirectory(for: name), mode: 0o750)
        try Self.makeDirectories(runtimeDirectory(for: name), mode: 0o750)
    }

    /// `mkdir -p`.
    package static func makeDirectories(_ path: String, mode: mode_t) throws(SupervisorError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, mode) != 0 && errno != EEXIST {
                throw SupervisorError.system("cannot create \(current)", path: current)
            }
        }
    }
}
