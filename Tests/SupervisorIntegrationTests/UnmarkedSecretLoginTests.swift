import Glibc
import Testing
import VerticalsClient
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting

/// A vertical that describes its login with a password field *not* marked `secret` gets no
/// password: `login` and `admin create` refuse it (exit 69) before they ask for anything or read
/// standard input, and the daemon serves no request of it, whether the password was typed or
/// given on the command line. The daemon is a real one (vt-testd with `VT_TESTD_UNMARKED_SECRET=1`),
/// its socket where the CLI looks and held by this process's user, whom the CLI trusts.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct UnmarkedSecretLoginTests {
    /// The hostile vertical's name.
    static let vertical = UnmarkedSecretVertical.name
    /// What the person types.
    static let typed = "typed-password-\(UInt32.random(in: 0...UInt32.max))"

    /// `svc-supervisor ARGUMENTS… --socket-dir <directory>/sockets` in `directory` (no manifest, no
    /// supervisor there), with ``typed`` on standard input.
    static func cli(_ arguments: [String], in directory: TemporaryDirectory) throws -> CommandResult {
        try supervisorCLI(
            arguments + ["--socket-dir", directory.file("sockets")],
            environment: ["XDG_STATE_HOME": directory.file("home"), "HOME": directory.file("home")]
                .merging(SecretRecipientsFixture.environment(in: directory, SecretRecipientsFixture.all(to: vertical)))
            { $1 },
            standardInput: "\(typed)\n", in: directory)
    }

    @Test(arguments: [
        ["login", "ada@example.org"],
        ["login", "ada@example.org", "typed-on-the-command-line"],
        ["login", "ada@example.org", "--password", "typed-on-the-command-line"],
        ["admin", "create", "ada@example.org"],
    ])
    func aLoginThatMarksNoFieldSecret_isRefused_andTheDaemonReceivesNothing(arguments: [String]) async throws {
        let directory = TemporaryDirectory()
        let daemon = try UnmarkedSecretVertical.start(in: directory)
        defer { daemon.stop() }

        let result = try Self.cli(arguments, in: directory)

        #expect(result.status == 69, "\(arguments): \(result.standardError)")
        #expect(
            result.standardError.contains("\(Self.vertical).signIn marks no field of its input secret"),
            "\(result.standardError)")
        #expect(!result.standardError.contains("Password"), "the CLI asked for the password as a plain field")
        let served = try await ServedRequests.count(
            of: "\(Self.vertical).signIn", service: Self.vertical, sockets: SocketDirectory(directory.file("sockets")))
        #expect(served == 0, "the daemon received a sign-in: the password left the CLI")
        #expect(access(directory.file("home/verticals/session.json"), F_OK) != 0, "no session was stored")
    }

    /// The same daemon's unmarked login still answers a deliberate `call` with its JSON: the refusal
    /// is the CLI's, not a broken daemon's.
    @Test func theUnmarkedLogin_isServed_whenCalledDeliberately() async throws {
        let directory = TemporaryDirectory()
        let daemon = try UnmarkedSecretVertical.start(in: directory)
        defer { daemon.stop() }

        let result = try Self.cli(
            ["call", Self.vertical, "signIn", "{\"account\": \"ada@example.org\", \"password\": \"not-a-secret\"}"],
            in: directory)

        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("token-for-anyone"), "\(result.standardOutput)")
    }
}
