import Glibc
import Testing
import VerticalsTesting

/// `scripts/trusted-cache.sh`, which the root scripts run on their cache folder before they
/// chroot into a Debian root it holds: a folder another user owns or may write is refused.
@Suite(.timeLimit(.minutes(1))) struct TrustedCacheTests {
    static let script = "\(DeployFixture.repositoryRoot)/scripts/trusted-cache.sh"

    /// `trusted_cache FOLDER` run by bash.
    static func check(_ folder: String, in directory: TemporaryDirectory) throws -> CommandResult {
        try runCommand("/bin/bash", ["-c", ". \"$1\"; trusted_cache \"$2\"", "bash", script, folder], in: directory)
    }

    @Test func aFolderWritableByOthers_isRefused_namingItsMode() throws {
        let directory = TemporaryDirectory()
        let hostile = directory.file("cache")
        mkdir(hostile, 0o755)
        chmod(hostile, 0o777)
        let result = try Self.check(hostile, in: directory)
        #expect(result.status == 1)
        #expect(result.standardError.contains("\(hostile) is writable by group or others (mode 777)"), "\(result.standardError)")
    }

    @Test func aFolderNobodyOwns_isRefused_andOneOnlyRootMayWrite_isTrusted() throws {
        guard geteuid() == 0 else {
            print("skipped: giving a folder to nobody and trusting root's takes root")
            return
        }
        let directory = TemporaryDirectory()
        let cache = directory.file("cache")
        mkdir(cache, 0o755)
        let trusted = try Self.check(cache, in: directory)
        #expect(trusted.status == 0, "\(trusted.standardError)")
        #expect(chown(cache, 65534, 65534) == 0)
        let refused = try Self.check(cache, in: directory)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("\(cache) belongs to uid 65534, not root"), "\(refused.standardError)")
    }

    @Test func aParentWritableByOthers_isRefused_evenWhenTheFolderIsRoots() throws {
        guard geteuid() == 0 else {
            print("skipped: a root-owned folder under a hostile parent takes root")
            return
        }
        let directory = TemporaryDirectory()
        let parent = directory.file("parent")
        mkdir(parent, 0o755)
        chmod(parent, 0o777)
        let cache = "\(parent)/cache"
        mkdir(cache, 0o755)
        let result = try Self.check(cache, in: directory)
        #expect(result.status == 1)
        #expect(result.standardError.contains("\(parent) is writable by group or others"), "\(result.standardError)")
    }
}
