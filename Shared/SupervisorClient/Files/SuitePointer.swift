#if canImport(Glibc)
import Glibc
#endif
import VerticalsContract

/// The note a running `svc-supervisor up` leaves of its run directory, so that the CLI finds
/// the suite from any folder, not only from the checkout that holds `.run`.
///
/// The note is the file `supervisor-run-dir` in the pointer folder: the run directory's
/// absolute path on the first line, the supervisor's pid on the second. The folder is
///
/// - `$VERTICALS_POINTER_DIR` when set (tests set it to their own temporary folder, so that
///   parallel supervisors never read or clobber the pointer of a real run; set but empty,
///   there is no pointer at all);
/// - else `/run/verticals` for root (the file is 0640, of the operator group when that group
///   exists, `verticals` unless `VERTICALS_OPERATOR_GROUP` names another, so the operators who
///   may use the sockets may read it);
/// - else, for a user, `$XDG_RUNTIME_DIR/verticals` when `$XDG_RUNTIME_DIR` is a folder of the
///   user's (systemd makes one at login; `su` and `setpriv` keep the caller's, or set none), else
///   `/tmp/verticals-UID`. Either is made 0700, and counts only while it is a folder of the user's
///   that nobody else may write in, never a link (`UserFolder`): a folder in `/tmp` may have
///   been made first by another user, to hand this user's CLI a pointer to a suite of theirs.
///
/// A user's CLI reads both of its folders, then `/run/verticals`: a suite started from a shell
/// without `$XDG_RUNTIME_DIR` is found from one with it. A note whose supervisor is gone (killed,
/// crashed) is stale and ignored; `up` removes its own note when it ends cleanly.
///
/// ```swift
/// let pointer = SuitePointer.places(environment: ProcessEnvironment.current).first
/// try pointer?.write(runDirectory: "/srv/suite/.run")
/// ```
public struct SuitePointer: Sendable, Equatable {
    /// The environment variable that names the pointer folder (empty: no pointer).
    public static let folderVariable = SupervisorSettings.pointerDir.name
    /// The note's file name inside the folder.
    public static let fileName = "supervisor-run-dir"
    /// The folder root's supervisor writes to.
    public static let systemFolder = Supervisor.systemFolder

    /// The folder that holds the note.
    public let folder: String
    /// The user whose private folder it must be (`UserFolder`): a user's own places; nil for
    /// root's folder and one `$VERTICALS_POINTER_DIR` names, which are taken as they are.
    public let owner: uid_t?

    /// A pointer in `folder`, which must be a private folder of `owner`'s when one is given.
    public init(folder: String, owner: uid_t? = nil) {
        self.folder = folder
        self.owner = owner
    }

    /// The folder a user's `up` falls back to without a runtime folder of their own.
    public static func userFallbackFolder(uid: uid_t) -> String { "/tmp/verticals-\(uid)" }

    /// The note's path.
    public var path: String { "\(folder)/\(Self.fileName)" }

    /// What a live note says.
    public struct Target: Sendable, Equatable {
        /// The run directory, absolute.
        public let runDirectory: String
        /// The supervisor that wrote it.
        public let pid: Int32
    }

    /// The pointers to look at, in order; `up` writes the first. Empty when pointers are off.
    public static func places(
        environment: [String: String], isRoot: Bool = geteuid() == 0, uid: uid_t = geteuid()
    ) -> [SuitePointer] {
        if let folder = environment[folderVariable] { return folder.isEmpty ? [] : [SuitePointer(folder: folder)] }
        if isRoot { return [SuitePointer(folder: systemFolder)] }
        var places: [SuitePointer] = []
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"), Self.isFolder(runtime, ownedBy: uid) {
            places.append(SuitePointer(folder: "\(runtime)/verticals", owner: uid))
        }
        places.append(SuitePointer(folder: userFallbackFolder(uid: uid), owner: uid))
        return places + [SuitePointer(folder: systemFolder)]
    }

    /// Whether `path` is a folder (or a link to one) that `uid` owns: another user's
    /// `$XDG_RUNTIME_DIR`, kept by `su`, is no place for this user's note.
    static func isFolder(_ path: String, ownedBy uid: uid_t) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR && info.st_uid == uid
    }

    /// Whether the folder may hold a note for this reader: always, unless it must be a private
    /// folder of ``owner``'s and is not.
    public var isTrusted: Bool { owner.map { UserFolder.isPrivate(folder, to: $0) } ?? true }

    /// Why the folder, which exists, may hold no note for this reader, in words; nil when it may,
    /// or when there is no folder.
    package var refusal: String? {
        var info = stat()
        guard let owner, lstat(folder, &info) == 0 else { return nil }
        return UserFolder.problem(folder, uid: owner)
    }

    /// Writes the note for the supervisor `pid` serving `runDirectory` (replacing any other),
    /// readable by `group` when written by root and that group exists.
    public func write(runDirectory: String, pid: Int32 = getpid(), group: String = "verticals") throws(SupervisorError)
    {
        if let owner {
            try UserFolder.make(folder, for: owner)
        } else {
            try RunDirectory.makeDirectories(folder, mode: 0o755)
        }
        let readers = geteuid() == 0 ? getgrnam(group).map { $0.pointee.gr_gid } : nil
        try ReplacedFile.write(Array("\(runDirectory)\n\(pid)\n".utf8), to: path, mode: 0o640, group: readers)
    }

    /// Removes the note if supervisor `pid` wrote it (another `up` may have replaced it since);
    /// puts back `previous`, the note it replaced, while that supervisor still runs, so that an
    /// older suite does not become unfindable when a newer one stops.
    public func remove(writtenBy pid: Int32 = getpid(), restoring previous: Target? = nil) {
        guard Self.parse(PidRecord.readSmallFile(path))?.pid == pid else { return }
        if let previous, previous.pid != pid, Self.supervisorRuns(previous.pid),
            (try? write(runDirectory: previous.runDirectory, pid: previous.pid)) != nil
        {
            return
        }
        unlink(path)
    }

    /// The note's target while its supervisor runs; nil when there is no note, or a stale one.
    public func liveTarget() -> Target? {
        guard isTrusted, let target = Self.parse(PidRecord.readSmallFile(path)), Self.supervisorRuns(target.pid) else {
            return nil
        }
        return target
    }

    /// Whether there is a note whose supervisor is gone.
    public var isStale: Bool { isTrusted && Self.parse(PidRecord.readSmallFile(path)) != nil && liveTarget() == nil }

    package static func parse(_ text: String?) -> Target? {
        let lines = text?.split(separator: "\n") ?? []
        guard lines.count >= 2, lines[0].hasPrefix("/"), let pid = Int32(lines[1]), pid > 0 else { return nil }
        return Target(runDirectory: String(lines[0]), pid: pid)
    }

    /// Whether `pid` is a running svc-supervisor (a user may not signal root's: EPERM still says it runs).
    package static func supervisorRuns(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        let name = PidRecord.readSmallFile("/proc/\(pid)/comm") ?? ""
        return name.hasPrefix("svc-supervisor") && ProcessState.isRunning(pid)
    }
}
