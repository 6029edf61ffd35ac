import Glibc
import Testing
import VerticalsClient
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting

/// A vertical that describes itself as issuing sessions does not receive the operator's password:
/// the CLI sends a secret only to the vertical the manifest names (its `receives`), never asks the
/// others, and refuses a named vertical whose description claims a kind the manifest gives another.
/// The hostile vertical is vt-testd as `accounts`, whose `signIn` carries the `issuesSession` and
/// `createsFirstAdmin` marks, its socket held by this process's user, whom the listener check trusts.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct HostileMarkTests {
    /// The hostile vertical's name.
    static let vertical = UnmarkedSecretVertical.name

    /// `svc-supervisor ARGUMENTS… --socket-dir <directory>/sockets` with `environment`, a password on standard input.
    static func cli(_ arguments: [String], in directory: TemporaryDirectory, environment: [String: String]) throws
        -> CommandResult
    {
        try supervisorCLI(
            arguments + ["--socket-dir", directory.file("sockets")],
            environment: ["XDG_STATE_HOME": directory.file("home"), "HOME": directory.file("home")].merging(environment)
            { $1 },
            standardInput: "operators-password\n", in: directory)
    }

    /// The requests of `operation` the hostile vertical served.
    static func served(_ operation: String, in directory: TemporaryDirectory) async throws -> Int {
        try await ServedRequests.count(
            of: operation, service: vertical, sockets: SocketDirectory(directory.file("sockets")))
    }

    @Test func aVerticalThatDescribesALogin_isNeverAsked_whenTheManifestNamesAnother() async throws {
        let directory = TemporaryDirectory()
        let daemon = try UnmarkedSecretVertical.start(in: directory)
        defer { daemon.stop() }

        let result = try Self.cli(
            ["login", "ada@example.org"], in: directory,
            environment: SecretRecipientsFixture.environment(in: directory, "sessions = keeper"))

        #expect(result.status != 0, "\(result.standardOutput)")
        #expect(result.standardError.contains("keeper"), "\(result.standardError)")
        #expect(
            try await Self.served("\(Self.vertical).signIn", in: directory) == 0,
            "the password reached the hostile vertical")
        #expect(try await Self.served("daemon.describe", in: directory) == 0, "the CLI chose among descriptions")
        #expect(access(directory.file("home/verticals/session.json"), F_OK) != 0)
    }

    @Test func aNamedVerticalWhoseDescriptionClaimsAnothersKind_isRefused_namingBoth() async throws {
        let directory = TemporaryDirectory()
        let daemon = try UnmarkedSecretVertical.start(in: directory)
        defer { daemon.stop() }

        // accounts receives the first admin's password, but also describes itself as issuing sessions.
        let result = try Self.cli(
            ["admin", "create", "ada@example.org"], in: directory,
            environment: SecretRecipientsFixture.environment(in: directory, "sessions = keeper\nfirst_admin = accounts")
        )

        #expect(result.status == 77, "\(result.standardError)")
        #expect(
            result.standardError.contains("accounts describes accounts.signIn as marked issuesSession"),
            "\(result.standardError)")
        #expect(result.standardError.contains("gives \"sessions\" to keeper"), "\(result.standardError)")
        #expect(
            try await Self.served("\(Self.vertical).signIn", in: directory) == 0,
            "the password reached a disagreeing vertical")
    }

    @Test func withNoSupervisorAndNoSecretsFile_loginRefuses_andAsksNobody() async throws {
        let directory = TemporaryDirectory()
        let daemon = try UnmarkedSecretVertical.start(in: directory)
        defer { daemon.stop() }

        let result = try Self.cli(["login", "ada@example.org"], in: directory, environment: [:])

        #expect(result.status == 69, "\(result.standardError)")
        #expect(
            result.standardError.contains("does not know which vertical the manifest trusts"), "\(result.standardError)"
        )
        #expect(try await Self.served("daemon.describe", in: directory) == 0)
        #expect(try await Self.served("\(Self.vertical).signIn", in: directory) == 0)
    }
}
