import GRDB
import VerticalsWire

/// A store that could not be opened, backed up or restored.
///
/// Compare ``code`` with the static members of ``Code`` (new codes may be added); a held store
/// names its holder in the detail `pid` (``holderPID``).
public struct StoreError: StoredCodedError {
    /// What kind of failure it is.
    public typealias Code = ErrorKind<StoreError>

    /// Its code, message, details (`pid` for a held store) and cause (what SQLite or the system
    /// said, when that led to it).
    public let storage: CodedErrorStorage<StoreError>

    /// The error `storage` describes.
    public init(storage: CodedErrorStorage<StoreError>) { self.storage = storage }

    /// The pid of the process holding the store (code `held`), once it has written its pid.
    public var holderPID: Int32? { detail("pid").flatMap { Int32($0) } }

    /// True when opening the store again would fail the same way: it is held, belongs to another
    /// vertical, has a newer schema, or is no whole SQLite store. A daemon then exits
    /// `DaemonExitStatus.restartCannotHelp` (78).
    public var restartCannotHelp: Bool {
        [.held, .otherOwner, .newerSchema, .unreadable, .notAStore].contains(code)
    }

    /// Whether another process holds the store.
    @available(*, deprecated, message: "compare code with .held")
    public var isHeld: Bool { code == .held }

    /// Whether there was no store to check.
    @available(*, deprecated, message: "compare code with .missing")
    public var isMissing: Bool { code == .missing }
}

extension ErrorKind where Domain == StoreError {
    /// Another process has the store open (it holds the store's lock): the detail `pid` names it.
    public static var held: Self { Self("held") }
    /// There is no store yet, and the caller does not create one (a daemon's `--check`).
    public static var missing: Self { Self("missing") }
    /// SQLite reads no whole store in the file (not a database, or a damaged one).
    public static var unreadable: Self { Self("unreadable") }
    /// The file is not an SQLite store, or fails its integrity check (a backup to restore).
    public static var notAStore: Self { Self("notAStore") }
    /// The store belongs to another vertical (its `application_id`).
    public static var otherOwner: Self { Self("otherOwner") }
    /// The store has migrations this build does not know.
    public static var newerSchema: Self { Self("newerSchema") }
    /// A file or path is not what the store may use: not absolute, not a plain file with one name,
    /// not one its vertical wrote.
    public static var refused: Self { Self("refused") }
    /// A backup would replace a file, which it never does.
    public static var exists: Self { Self("exists") }
    /// The data is over the bound a backup may take, or the folder has too little room for it.
    public static var tooLarge: Self { Self("tooLarge") }
    /// A system call failed (the message says which, and its `errno`).
    public static var system: Self { Self("system") }
    /// The process that reads a store for the supervisor failed or overran its time.
    public static var readerFailed: Self { Self("readerFailed") }
}

extension StoreError {
    /// `error`, met opening the store at `path`, as a ``StoreError``: one SQLite says is no
    /// database or a damaged one cannot be mended by opening it again.
    static func unreadable(_ path: String, _ error: any Error) -> any Error {
        guard let database = error as? DatabaseError else { return error }
        guard database.resultCode == .SQLITE_NOTADB || database.resultCode == .SQLITE_CORRUPT else { return error }
        return StoreError(
            .unreadable,
            "the store \(path) is not a whole SQLite store (\(database.message ?? "\(database.resultCode)")): "
                + "restore a backup (svc-supervisor restore), or move the file away to start empty",
            cause: database)
    }
}
