import Glibc
import Testing
import VerticalsTesting

/// On a live suite as root with a user per vertical, named by the manifest (`user =`, not
/// `verticals-NAME`): a member of the operator group who is neither root nor identity's user may
/// create the first admin with `svc-supervisor admin create`, exactly as the operator-only mark
/// admits it, while a vertical's user may not; and root's `svc-supervisor login` trusts the suite's
/// own identity, whose socket the supervisor handed to a process of that user (the CLI believes
/// the supervisor's `status` about which process that is, or the socket's root-only folder).
@Suite(.blocking, .serialized, .timeLimit(.minutes(3)))
struct OperatorGroupSuiteTests {
    /// identity, clinics (declaring identity.authenticate) and notifications, each as its user.
    static func manifest(prefix: String) -> String {
        "[defaults]\nstop_timeout = \"5s\"\n" + OperationRoutesSuiteTests.services(user: prefix)
    }

    @Test(.enabled(if: geteuid() == 0, "needs root: runs each vertical as its own user"))
    func anOperatorGroupMember_createsTheFirstAdmin_aVerticalsUserMayNot_andRootsLoginTrustsTheSuite() async throws {
        try await UserPerVerticalSuite.run(
            tag: "vto", services: ["identity", "clinics", "notifications"], manifest: Self.manifest
        ) { suite in
            let (prefix, directory, bin, run) = (suite.prefix, suite.directory, suite.bin, suite.run)
            let input =
                "{\"email\": \"ada@example.org\", \"password\": \"correct-horse-battery\", \"displayName\": \"Ada\"}"

            // A vertical's user, with the operator group beside its own as its daemon has: refused by the mark.
            let asClinics = try suite.call(as: "clinics", "identity", "createAdmin", input)
            #expect(asClinics.status != 0)
            #expect(asClinics.standardError.contains("it is operator-only"), "\(asClinics.standardError)")

            // An operator: a user of its own whose primary group is the operator group.
            let member = prefix + "oper"
            let added = try runCommand(
                "/usr/sbin/useradd", ["-r", "-M", "-g", prefix + "ops", "-s", "/usr/sbin/nologin", member],
                in: directory)
            try #require(added.status == 0, "useradd: \(added.standardError)")
            // Copied out at once: getpwnam's answer lives in a buffer the next look-up reuses.
            let uid = try #require(getpwnam(member)).pointee.pw_uid
            let gid = try #require(getgrnam(prefix + "ops")).pointee.gr_gid
            // The member cannot ask the supervisor's status which vertical receives the first admin's
            // password: a root-owned file says it, as export systemd's verticals-secrets.conf does.
            let secrets = "\(run)-secrets.conf"
            SecretRecipientsFixture.write("first_admin = identity", to: secrets)
            defer { unlink(secrets) }
            // Through `admin create`: the member cannot ask the supervisor (its control socket is root's),
            // so the CLI trusts identity's socket because only root can have placed it.
            let created = try runCommand(
                "/usr/bin/setpriv",
                [
                    "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups",
                    "\(bin)/svc-supervisor", "admin", "create", "ada@example.org", "--display-name", "Ada", "--run-dir",
                    run,
                ],
                environment: ["HOME": "/nonexistent", "VERTICALS_SECRETS_FILE": secrets], in: directory,
                standardInput: "correct-horse-battery\n")
            #expect(created.status == 0, "the operator group's member: \(created.standardError)")
            #expect(created.standardOutput.contains("\"admin\""), "\(created.standardOutput)")
            let audited = eventually(timeout: .seconds(30)) {
                (readFile("\(run)/logs/identity.log") ?? "").contains(
                    "operation=identity.createAdmin caller=\(member) caller_uid=\(uid) caller_gid=\(gid)")
            }
            #expect(audited, "identity's audit lines: \(readFile("\(run)/logs/identity.log") ?? "")")

            // Root's login: identity's socket is held by its own user, named by the manifest.
            let login = try runCommand(
                "\(bin)/svc-supervisor", ["login", "ada@example.org", "--run-dir", run],
                environment: ["XDG_STATE_HOME": directory.file("home")], in: directory,
                standardInput: "correct-horse-battery\n")
            #expect(login.status == 0, "\(login.standardError)")
            #expect(login.standardOutput.contains("logged in as ada@example.org"), "\(login.standardOutput)")
        }
    }
}
