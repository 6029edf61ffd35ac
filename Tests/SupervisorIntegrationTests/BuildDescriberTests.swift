import Glibc
import Testing
import VerticalsServiceKit
import VerticalsSupervisor
import VerticalsTesting
import VerticalsSharedTesting

/// `can-i-deploy` runs a build's `--describe` as untrusted code: never as root, with nothing of
/// the caller's (environment, folder, descriptors, stdin), within a time limit and an output cap.
@Suite("A build's --describe runs as untrusted code", .serialized, .timeLimit(.minutes(2)))
struct BuildDescriberTests {
    /// A folder anyone can read, holding the executable script `name` with `body` after `#!/bin/sh`.
    final class Scripts {
        let directory = TemporaryDirectory()

        init() { chmod(directory.path, 0o755) }

        func script(_ name: String, _ body: String) -> String {
            let path = directory.file(name)
            writeText("#!/bin/sh\n" + body + "\n", to: path)
            chmod(path, 0o755)
            return path
        }
    }

    static var describer: BuildDescriber {
        BuildDescriber(execShim: "\(DaemonProcess.productsDirectory)/vt-exec", timeout: .seconds(5))
    }

    /// A script that describes itself with a summary saying who ran it, where, with what environment and stdin.
    static let whoAmI = #"""
        printf '{"serves": {"name": "probe", "summary": "uid=%s cwd=%s env=%s stdin=%s"}}' \
            "$(/usr/bin/id -u)" "$(/bin/pwd)" "$(/usr/bin/env | /bin/grep -v '^PWD=' | /usr/bin/wc -l)" "$(/bin/cat | /usr/bin/wc -c)"
        """#

    @Test(.enabled(if: geteuid() == 0, "needs root: the switch to the vertical's user is root's"))
    func asRoot_theBuildRunsAsTheVerticalsUser_inAnEmptyWorld() throws {
        let scripts = Scripts()
        let build = try Self.describer.describe(scripts.script("who", Self.whoAmI), as: .init(uid: 65534, gid: 65534))
        #expect(build.serves.summary == "uid=65534 cwd=/ env=0 stdin=0")
    }

    @Test(.enabled(if: geteuid() == 0, "needs root: only root could run a build as root"))
    func asRoot_withoutAnAccount_theBuildIsNeverRunAsRoot() {
        let scripts = Scripts()
        let marker = scripts.directory.file("ran")
        let program = scripts.script("who", "/usr/bin/touch \(marker)\n" + Self.whoAmI)
        #expect(throws: BuildDescribeError.self) { try Self.describer.describe(program, as: nil) }
        #expect(throws: BuildDescribeError.self) { try Self.describer.describe(program, as: .init(uid: 0, gid: 0)) }
        #expect(access(marker, F_OK) != 0, "the build ran")
    }

    @Test(.enabled(if: geteuid() != 0, "as root the build runs as another user: the root test covers it"))
    func asAnOrdinaryUser_theBuildRunsAsThatUser_inAnEmptyWorld() throws {
        let scripts = Scripts()
        let build = try Self.describer.describe(scripts.script("who", Self.whoAmI), as: nil)
        #expect(build.serves.summary == "uid=\(geteuid()) cwd=/ env=0 stdin=0")
    }

    static var account: BuildDescriber.Account? { geteuid() == 0 ? .init(uid: 65534, gid: 65534) : nil }

    /// Why `program` did not describe itself, or nil when it did.
    static func refusal(_ program: String, _ describer: BuildDescriber = describer) -> BuildDescribeError? {
        do {
            _ = try describer.describe(program, as: account)
            return nil
        } catch {
            return error
        }
    }

    /// Runs the script `body` under a 300 ms limit, and expects it killed there, long before
    /// its 60 s sleep ends.
    static func expectKilledAtTheTimeLimit(_ body: String) throws {
        let scripts = Scripts()
        var describer = Self.describer
        describer.timeout = .milliseconds(300)
        let started = ContinuousClock.now
        let error = try #require(Self.refusal(scripts.script("hang", body), describer))
        #expect(error.reason == .timedOut, "\(error)")
        #expect(ContinuousClock.now - started < .seconds(30), "waited for the sleep, not the limit")
    }

    @Test func aBuildThatHangs_isKilledAtTheTimeLimit() throws {
        try Self.expectKilledAtTheTimeLimit("/bin/sleep 60")
    }

    @Test func aBuildThatClosesItsOutputAndHangs_isKilledAtTheTimeLimitToo() throws {
        try Self.expectKilledAtTheTimeLimit("exec >&- 2>&-\n/bin/sleep 60")
    }

    @Test func aBuildThatPrintsWithoutEnd_isCutAtTheCap() throws {
        let scripts = Scripts()
        var describer = Self.describer
        describer.maxBytes = 1 << 16
        let error = try #require(Self.refusal(scripts.script("flood", "exec /usr/bin/yes"), describer))
        #expect(error.reason == .malformed && error.detail.contains("more than 65536 bytes"), "\(error)")
    }

    @Test func aBuildThatFails_isATypedErrorNamingWhy() throws {
        let scripts = Scripts()
        let error = try #require(Self.refusal(scripts.script("fail", "echo 'no contract here' >&2; exit 3")))
        #expect(error.reason == .failed, "\(error)")
        #expect(error.detail.contains("status 3") && error.detail.contains("no contract here"), "\(error)")
    }

    @Test func aBuildThatPrintsGarbage_isATypedError() throws {
        let scripts = Scripts()
        let error = try #require(Self.refusal(scripts.script("garbage", "echo '{\"serves\": 1}'")))
        #expect(error.reason == .malformed, "\(error)")
    }
}
