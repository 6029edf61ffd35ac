import Glibc
import Testing
import VerticalsTesting

/// A full disk, for real: a 16 KiB tmpfs (mounting one needs root; skipped elsewhere).
enum TinyDisk {
    /// Whether this process may mount a tmpfs (tried once).
    static let available: Bool = {
        let directory = TemporaryDirectory()
        guard mount("tmpfs", directory.path, "tmpfs", 0, "size=16k") == 0 else { return false }
        umount(directory.path)
        return true
    }()
}

/// What a caller sees when a disk fills: under the vertical (where it writes its backup), a typed
/// `resourceExhausted` through the real host path (SQLITE_FULL from the online backup); under the
/// operator's folder (where the CLI moves it), the CLI says so. Never a crash or a half-written file.
@Suite(.blocking, .serialized, .timeLimit(.minutes(1)))
struct DiskFullTests {
    /// The names in `folder`.
    static func entries(_ folder: String) -> [String] {
        var entries: [String] = []
        if let directory = opendir(folder) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { entries.append(name) }
            }
            closedir(directory)
        }
        return entries
    }

    @Test(.enabled(if: TinyDisk.available, "needs root to mount a tmpfs"))
    func backupToAFullDisk_isResourceExhausted_leavesNoFile_andTheVerticalServesOn() throws {
        let suite = try SuiteLauncher()
        try suite.start("clinics")
        // The vertical writes its copy under its state directory's backups/, then the CLI copies it.
        let staging = suite.directory.file("state-clinics/backups")
        let full = suite.directory.file("full")
        mkdir(staging, 0o700)
        mkdir(full, 0o755)
        try #require(mount("tmpfs", staging, "tmpfs", 0, "size=16k") == 0)
        defer { umount(staging) }
        try #require(mount("tmpfs", full, "tmpfs", 0, "size=16k") == 0)
        defer {
            umount(full)
            withExtendedLifetime(suite) {} // the temporary folder goes only after the unmounts
        }

        let backup = try suite.supervisor("backup", ["clinics", suite.directory.file("out")])
        let staged = Self.entries(staging)
        umount(staging)
        let moved = try suite.supervisor(
            "backup", ["--state-dir", suite.directory.file("state-clinics"), "clinics", full])

        #expect(backup.status == 1)
        #expect(backup.standardError.contains("resourceExhausted"), "\(backup.standardError)")
        #expect(staged.isEmpty, "the vertical's half-written copy is removed: \(staged)")
        #expect(moved.status == 73)
        // Free space is checked before a byte is copied: the refusal says what is missing.
        #expect(
            moved.standardError.contains("bytes free") && moved.standardError.contains("free some space first"),
            "\(moved.standardError)")
        #expect(Self.entries(full).isEmpty, "the half-written copy is removed: \(Self.entries(full))")
        let still = try suite.supervisor("call", ["clinics", "get", #"{"id": "c_0001"}"#])
        #expect(still.status == 0, "\(still.standardError)")
    }
}
