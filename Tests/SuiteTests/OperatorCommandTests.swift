import Glibc
import IOInterface
import Testing
import VerticalsContract
import VerticalsTesting

/// A new operator's first session through the CLI: the first admin, login, a call that needs
/// a token, role changes, logout — real argv, real daemons, real sockets.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct OperatorCommandTests {
    static let password = "correct horse battery staple"
    static let clinic =
        #"{"name": "Hill Clinic", "address": "1 Hill St, Leeds", "latitude": 53.8, "longitude": -1.55, "timeZone": "Europe/London", "services": ["gp"]}"#

    /// Runs `svc-supervisor ARGS` against `suite` with `home` as the user's state folder.
    static func cli(
        _ arguments: [String], suite: SuiteLauncher, home: String, input: String? = nil
    ) throws -> CommandResult {
        try runCommand(
            "svc-supervisor", arguments + ["--socket-dir", suite.sockets.path],
            environment: [
                "XDG_STATE_HOME": home
            ].merging(
                SecretRecipientsFixture.environment(in: suite.directory, SecretRecipientsFixture.all(to: "identity"))
            ) { $1 },
            in: suite.directory, standardInput: input)
    }

    @Test func firstAdmin_logsIn_createsAClinic_whileAPatientIsRefused_andLogoutRevokes() throws {
        let suite = try SuiteLauncher()
        try suite.start("identity")
        try suite.start("clinics")
        let adminHome = suite.directory.file("admin-home")
        let patientHome = suite.directory.file("patient-home")

        // The fields come from createAdmin's schema: the address in order, the name shown by its flag.
        let created = try Self.cli(
            ["admin", "create", "ops@example.org", "--display-name", "Ops Team"], suite: suite, home: adminHome,
            input: Self.password + "\n")
        #expect(created.status == 0, "\(created.standardError)")
        #expect(created.standardOutput.contains(#""displayName":"Ops Team""#), "\(created.standardOutput)")
        let again = try Self.cli(
            ["admin", "create", "eve@example.org"], suite: suite, home: adminHome, input: Self.password + "\n")
        #expect(again.status == 1)
        #expect(again.standardError.contains("conflict"), "\(again.standardError)")

        let login = try Self.cli(["login", "ops@example.org"], suite: suite, home: adminHome, input: Self.password)
        #expect(login.status == 0, "\(login.standardError)")
        var info = stat()
        #expect(stat(adminHome + "/verticals/session.json", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)

        let added = try Self.cli(["call", "clinics", "create", Self.clinic], suite: suite, home: adminHome)
        #expect(added.status == 0, "\(added.standardError)")
        #expect(added.standardOutput.contains("Hill Clinic"))

        let registered = try Self.cli(
            [
                "call", "identity", "register",
                #"{"email": "pat@example.org", "password": "\#(Self.password)", "displayName": "Pat"}"#,
            ],
            suite: suite, home: patientHome)
        #expect(registered.status == 0, "\(registered.standardError)")
        let patientLogin = try Self.cli(
            ["login", "pat@example.org"], suite: suite, home: patientHome, input: Self.password)
        #expect(patientLogin.status == 0, "\(patientLogin.standardError)")
        let refused = try Self.cli(["call", "clinics", "create", Self.clinic], suite: suite, home: patientHome)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("permissionDenied"), "\(refused.standardError)")

        let granted = try Self.cli(["admin", "grant", "pat@example.org", "admin"], suite: suite, home: adminHome)
        #expect(granted.status == 0, "\(granted.standardError)")
        #expect(granted.standardOutput.contains(#""roles":["patient","admin"]"#), "\(granted.standardOutput)")
        let nowAllowed = try Self.cli(["call", "clinics", "create", Self.clinic], suite: suite, home: patientHome)
        #expect(nowAllowed.status == 0, "\(nowAllowed.standardError)")
        let patientGrants = try Self.cli(
            ["admin", "revoke", "ops@example.org", "admin"], suite: suite, home: patientHome)
        #expect(patientGrants.status == 0, "an admin now: \(patientGrants.standardError)")

        let logout = try Self.cli(["logout"], suite: suite, home: adminHome)
        #expect(logout.status == 0, "\(logout.standardError)")
        #expect(access(adminHome + "/verticals/session.json", F_OK) != 0, "the stored token is gone")
        let afterLogout = try Self.cli(["call", "clinics", "create", Self.clinic], suite: suite, home: adminHome)
        #expect(afterLogout.status == 77, "\(afterLogout.standardError)")
    }

    /// `login` and `admin` take what the marked operation's schema has, and name what it lacks.
    @Test func login_andAdmin_refuseWhatTheOperationsSchemaDoesNotTake() throws {
        let suite = try SuiteLauncher()
        try suite.start("identity")
        let home = suite.directory.file("home")

        let flag = try Self.cli(
            ["login", "ada@example.org", "--shoe-size", "9"], suite: suite, home: home, input: Self.password)
        #expect(flag.status == 64, "\(flag.standardError)")
        #expect(flag.standardError.contains("--shoe-size: identity.login has no such field"), "\(flag.standardError)")
        // A field the contract marks secret is never taken from the command line (its history, the process list).
        let secret = try Self.cli(["login", "ada@example.org", "--password", Self.password], suite: suite, home: home)
        #expect(secret.status == 64, "\(secret.standardError)")
        #expect(
            secret.standardError.contains("--password: identity.login has no such field to give"),
            "\(secret.standardError)")
        let extra = try Self.cli(["login", "ada@example.org", "again"], suite: suite, home: home, input: Self.password)
        #expect(
            extra.status == 64 && extra.standardError.contains("takes 1 value(s) in order (email)"),
            "\(extra.standardError)")
        #expect(access(home + "/verticals/session.json", F_OK) != 0)
    }

    @Test func login_withAWrongPassword_storesNothing() throws {
        let suite = try SuiteLauncher()
        try suite.start("identity")
        let home = suite.directory.file("home")

        let login = try Self.cli(["login", "nobody@example.org"], suite: suite, home: home, input: Self.password)

        #expect(login.status == 1)
        #expect(login.standardError.contains("unauthenticated"), "\(login.standardError)")
        #expect(access(home + "/verticals/session.json", F_OK) != 0)
    }
}
