#if canImport(Glibc)
import Glibc
#endif
import CSpawn
import GRDB

/// How the supervisor reads a store a vertical wrote: the backup it restores (checked whole and
/// for its owner) and the store it replaces (checkpointed into one file to keep). Both are the
/// vertical's bytes, parsed by SQLite's C code, so root reads neither itself: under a supervisor
/// that runs each vertical as its own user, a child does, as that user (``UntrustedStoreCommand``).
///
/// ``inProcess`` reads them in this process, as the owner of the file's folder
/// (``FolderOwnerAccess``): for a store of the caller's own, where no privilege lies between them.
public struct UntrustedStoreReader: Sendable {
    /// Throws a ``StoreError`` unless `file` (a copy of the backup `source`, which errors name) is
    /// a whole SQLite store of `owner` or of no vertical yet.
    public let check:
        @Sendable (_ file: String, _ source: String, _ owner: StoreOwner, _ knownOwners: [String]) throws -> Void
    /// Folds `file`'s `-wal` into it, so its main file alone is whole; a file SQLite cannot read
    /// is left as it is.
    public let checkpoint: @Sendable (_ file: String) -> Void

    /// A reader that does both its own way.
    public init(
        check:
            @escaping @Sendable (_ file: String, _ source: String, _ owner: StoreOwner, _ knownOwners: [String]) throws
            -> Void,
        checkpoint: @escaping @Sendable (_ file: String) -> Void
    ) {
        self.check = check
        self.checkpoint = checkpoint
    }

    /// Reads in this process, as the owner of the file's folder.
    public static let inProcess = UntrustedStoreReader(
        check: { file, source, owner, known in
            try FolderOwnerAccess.run(in: BackupFile.folder(of: file)) {
                try SQLiteStore.checkBackup(file, named: source, of: owner, knownOwners: known)
            }
        },
        checkpoint: { file in
            _ = try? FolderOwnerAccess.run(in: BackupFile.folder(of: file)) { SQLiteStore.checkpointWhole(file) }
        })
}

/// The child's side of ``UntrustedStoreReader``: a program that reads a store for the supervisor
/// answers these arguments before any other, and exits with what it found.
///
/// - `PROGRAM --read-untrusted-store check FILE SOURCE OWNER [KNOWN…]`: exit 0 when ``SQLiteStore``
///   would restore it, else 1 with the reason, one line, on standard error.
/// - `PROGRAM --read-untrusted-store checkpoint FILE`: exit 0 (a file SQLite cannot read is left).
///
/// `svc-supervisor-engine` is that program: the supervisor runs it through `vt-exec` as the
/// vertical's user, with the vertical's own session options, limits and cgroups, an empty
/// environment and no descriptor but its standard ones; it forbids tracing itself first.
public enum UntrustedStoreCommand {
    /// The first argument that selects it.
    public static let flag = "--read-untrusted-store"

    /// The exit status for `arguments` (all after the program's name), or nil when they do not
    /// ask for it.
    public static func run(_ arguments: [String]) -> Int32? {
        guard arguments.first == flag else { return nil }
        // Other processes of the vertical's user may not trace this one or write its memory
        // while it reads: what it answers is the supervisor's to believe.
        guard vt_forbid_tracing() == 0 else {
            say("cannot forbid tracing: \(String(cString: strerror(errno)))")
            return 70
        }
        let rest = Array(arguments.dropFirst())
        switch rest.first {
        case "check" where rest.count >= 4:
            do {
                try SQLiteStore.checkBackup(
                    rest[1], named: rest[2], of: StoreOwner(rest[3]), knownOwners: Array(rest.dropFirst(4)))
                return 0
            } catch let error as StoreError {
                say(error.message)
                return 1
            } catch {
                say("\(error)")
                return 1
            }
        case "checkpoint" where rest.count == 2:
            SQLiteStore.checkpointWhole(rest[1])
            return 0
        default:
            say("usage: \(flag) check FILE SOURCE OWNER [KNOWN...] | checkpoint FILE")
            return 64
        }
    }

    /// Writes `text` to standard error as one line.
    private static func say(_ text: String) {
        let bytes = Array((String(text.map { $0.isNewline ? " " : $0 }) + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
