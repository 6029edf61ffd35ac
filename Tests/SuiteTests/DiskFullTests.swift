import Glibc
import ProcessTesting
import Testing

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

/// What a caller sees when the disk under a vertical fills: a typed `resourceExhausted` through
/// the real host path (SQLITE_FULL from the online backup), never a crash or a half-written file.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct DiskFullTests {
    @Test(.enabled(if: TinyDisk.available, "needs root to mount a tmpfs"))
    func backupToAFullDisk_isResourceExhausted_leavesNoFile_andTheVerticalServesOn() throws {
        let suite = try SuiteLauncher()
        try suite.start("clinics")
        let full = suite.directory.file("full")
        mkdir(full, 0o755)
        try #require(mount("tmpfs", full, "tmpfs", 0, "size=16k") == 0)
        defer {
            umount(full)
            withExtendedLifetime(suite) {}  // the temporary folder goes only after the unmount
        }

        let backup = try runCommand(
            "svc-supervisor", ["backup", "--socket-dir", suite.sockets.path, "clinics", full], in: suite.directory)

        #expect(backup.status == 1)
        #expect(backup.standardError.contains("resourceExhausted"), "\(backup.standardError)")
        var entries: [String] = []
        if let folder = opendir(full) {
            while let entry = readdir(folder) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { entries.append(name) }
            }
            closedir(folder)
        }
        #expect(entries.isEmpty, "the half-written copy is removed: \(entries)")
        let still = try runCommand(
            "svc-supervisor", ["call", "--socket-dir", suite.sockets.path, "clinics", "get", #"{"id": "c_0001"}"#],
            in: suite.directory)
        #expect(still.status == 0, "\(still.standardError)")
    }
}
