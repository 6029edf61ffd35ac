import Glibc
import Testing
import VerticalsTesting

/// `scripts/trusted-cache.sh`, which the root scripts run on their cache folder before they
/// chroot into a Debian root it holds: a folder another user owns or may write is refused.
@Suite(.blocking, .timeLimit(.minutes(5))) struct TrustedCacheTests {
    static let script = "\(DeployFixture.repositoryRoot)/scripts/trusted-cache.sh"

    /// Folder `name` of `directory`, made with `mode`.
    static func folder(_ name: String, mode: mode_t, in directory: TemporaryDirectory) -> String {
        let path = directory.file(name)
        mkdir(path, 0o755)
        chmod(path, mode)
        return path
    }

    /// What `trusted_cache FOLDER` says when it refuses `folder` (exit 1), or nil when it trusts it
    /// (exit 0).
    static func refusal(of folder: String, in directory: TemporaryDirectory) throws -> String? {
        let result = try runCommand(
            "/bin/bash", ["-c", ". \"$1\"; trusted_cache \"$2\"", "bash", script, folder], in: directory)
        #expect(result.status == 0 || result.status == 1, "\(result.status): \(result.standardError)")
        return result.status == 0 ? nil : result.standardError
    }

    /// Checks that `trusted_cache FOLDER` refuses `folder`, saying `reason`.
    static func expectRefused(
        _ folder: String, in directory: TemporaryDirectory, saying reason: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let refusal = try #require(try refusal(of: folder, in: directory), sourceLocation: sourceLocation)
        #expect(refusal.contains(reason), "\(refusal)", sourceLocation: sourceLocation)
    }

    @Test func aFolderWritableByOthers_isRefused_namingItsMode() throws {
        let directory = TemporaryDirectory()
        let hostile = Self.folder("cache", mode: 0o777, in: directory)
        try Self.expectRefused(hostile, in: directory, saying: "\(hostile) is writable by group or others (mode 777)")
    }

    @Test(.enabled(if: geteuid() == 0, "needs root: gives a folder to nobody, and trusts only root's"))
    func aFolderNobodyOwns_isRefused_andOneOnlyRootMayWrite_isTrusted() throws {
        let directory = TemporaryDirectory()
        let cache = Self.folder("cache", mode: 0o755, in: directory)
        #expect(try Self.refusal(of: cache, in: directory) == nil)
        #expect(chown(cache, 65534, 65534) == 0)
        try Self.expectRefused(cache, in: directory, saying: "\(cache) belongs to uid 65534, not root")
    }

    @Test(.enabled(if: geteuid() == 0, "needs root: a folder of root's under a parent others may write"))
    func aParentWritableByOthers_isRefused_evenWhenTheFolderIsRoots() throws {
        let directory = TemporaryDirectory()
        let parent = Self.folder("parent", mode: 0o777, in: directory)
        mkdir("\(parent)/cache", 0o755)
        try Self.expectRefused("\(parent)/cache", in: directory, saying: "\(parent) is writable by group or others")
    }
}
