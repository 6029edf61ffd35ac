import Testing
import VerticalsTesting
import VerticalsSharedTesting

/// Root reaches a vertical's state or runtime folder one way only: ``FolderOwnerAccess`` (the
/// folder owner's fsuid, fsgid and no groups, `O_NOFOLLOW`, plain one-name files) or a descriptor
/// walk that follows no link. A function of the supervisor's sources, or of the store's restore
/// and backup, that names such a folder and makes a file-system call fails here unless it is one
/// of the sanctioned ones, each with the reason it is safe.
@Suite struct FolderAccessRuleTests {
    /// The sources read: the supervisor's, and the store's restore and backup.
    static let sources = ["Shared/Supervisor"]
    static let storageFiles = ["SQLiteStore+Restore.swift", "SQLiteStore+Backup.swift", "BackupFile.swift"]
    /// File-system calls by path.
    static let calls = [
        "open", "openat", "stat", "lstat", "fstatat", "rename", "renameat", "unlink", "unlinkat", "link", "linkat",
        "symlink", "mkdir", "rmdir", "access", "chmod", "truncate", "fopen", "opendir", "readlink", "realpath",
    ]
    /// What names a vertical's folder in the sources.
    static let markers = [
        "stateDirectory(for", "runtimeDirectory(for", "stateFolder", "STATE_DIRECTORY", "RUNTIME_DIRECTORY",
    ]
    /// The functions allowed both, and why.
    static let sanctioned: [String: String] = [
        "BackupFile.swift take":
            "opens the state folder O_NOFOLLOW, then backups/ and the file as its owner (FolderOwnerAccess)",
        "SupervisorEngine+Upgrade.swift rollBack":
            "its only call removes root's own pid record; the store goes through SQLiteStore.restore",
    ]

    @Test func noFunction_touchesAVerticalsFolder_butThroughTheOneWayIn() {
        let files = SourceTree.swiftFiles(
            in: Self.sources, files: Self.storageFiles.map { "Shared/Storage/\($0)" }, moreThan: 40)
        var found: [String] = []
        for file in files {
            let name = file.split(separator: "/").last.map(String.init) ?? file
            found += Self.offenders(in: readFile(file) ?? "").map { "\(name) \($0)" }
        }
        let unsanctioned = found.filter { Self.sanctioned[$0] == nil }
        let listing = unsanctioned.joined(separator: "\n")
        #expect(
            unsanctioned.isEmpty,
            "these name a vertical's folder and call the file system by path: go through FolderOwnerAccess:\n\(listing)"
        )
        let stale = Self.sanctioned.keys.filter { !found.contains($0) }
        #expect(stale.isEmpty, "sanctioned but gone: \(stale)")
    }

    @Test func theScan_findsACallBesideAFolderName_inOneFunction() {
        let text = """
            extension Engine {
                func clean(_ name: String) {
                    let folder = run.stateDirectory(for: name)
                    unlink(folder + "/x")
                }
                func quiet(_ name: String) {
                    let folder = run.stateDirectory(for: name)
                    try FolderOwnerAccess.run(in: folder) { remove(folder) }
                }
            }
            """
        #expect(Self.offenders(in: text) == ["clean"])
    }

    /// The functions of `text` that name a vertical's folder and make a file-system call.
    static func offenders(in text: String) -> [String] {
        var bodies: [(name: String, lines: [Substring])] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            guard !trimmed.hasPrefix("//") else { continue }
            if line.count - trimmed.count <= 4, let name = RootOperationsTests.declaredName(in: String(trimmed)) {
                bodies.append((name, []))
            }
            if !bodies.isEmpty { bodies[bodies.count - 1].lines.append(line) }
        }
        return bodies.filter { body in
            let names = body.lines.contains { line in markers.contains { line.contains($0) } }
            let touches = body.lines.contains { line in
                line.contains("FileManager") || calls.contains { RootOperationsTests.isCall($0, in: String(line)) }
            }
            return names && touches
        }.map(\.name)
    }
}
