import GRDB

/// A store that could not be opened, backed up or restored.
public struct StoreError: Error, CustomStringConvertible {
    /// What went wrong and where, and what to do.
    public let message: String
    /// True when the store is refused only because another process has it open (it holds the
    /// store's lock, see ``SQLiteStore/open(directory:fileName:owner:migrator:durability:)``).
    public let isHeld: Bool
    /// The pid of the process holding the store, when ``isHeld`` and it has written its pid.
    public let holderPID: Int32?
    /// True when opening the store again would fail the same way: it is held, belongs to another
    /// vertical, or has a newer schema. A daemon then exits `DaemonExitStatus.restartCannotHelp` (78).
    public let restartCannotHelp: Bool
    /// True when a daemon's `--check` found no store to check (``SQLiteStore/checking``): nothing
    /// is wrong, the daemon creates it at its first start.
    public let isMissing: Bool
    public var description: String { message }

    package init(
        message: String, isHeld: Bool = false, holderPID: Int32? = nil, restartCannotHelp: Bool = false,
        isMissing: Bool = false
    ) {
        self.message = message
        self.isHeld = isHeld
        self.holderPID = holderPID
        self.restartCannotHelp = restartCannotHelp || isHeld
        self.isMissing = isMissing
    }
}

extension StoreError {
    /// `error`, met opening the store at `path`, as a ``StoreError``: one SQLite says is no
    /// database or a damaged one cannot be mended by opening it again.
    static func unreadable(_ path: String, _ error: any Error) -> any Error {
        guard let database = error as? DatabaseError else { return error }
        guard database.resultCode == .SQLITE_NOTADB || database.resultCode == .SQLITE_CORRUPT else { return error }
        return StoreError(
            message: "the store \(path) is not a whole SQLite store (\(database.message ?? "\(database.resultCode)")): "
                + "restore a backup (svc-supervisor restore), or move the file away to start empty",
            restartCannotHelp: true)
    }
}
