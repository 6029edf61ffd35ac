import Glibc
import Testing
import VerticalsTesting

/// `svc-supervisor password` and `logout --everywhere` against a real svc-identity: the CLI finds
/// the operations by their marks, asks for the fields they mark secret on standard input, and every
/// session of the account ends.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct PasswordCommandTests {
    /// svc-identity in `directory`, and a CLI pointed at it with its own login store.
    struct Fixture {
        let directory = TemporaryDirectory()
        let identity: DaemonProcess

        init() throws {
            let state = directory.file("state")
            mkdir(state, 0o700)
            identity = try DaemonProcess(
                "svc-identity",
                environment: [
                    "VERTICALS_SOCKET_DIR": directory.file("sockets"), "STATE_DIRECTORY": state,
                    "IDENTITY_PWHASH_OPSLIMIT": "1", "IDENTITY_PWHASH_MEMLIMIT": "8192",
                ])
            let socket = directory.file("sockets/identity.sock")
            #expect(eventually { access(socket, F_OK) == 0 }, "svc-identity never made its socket")
        }

        func cli(_ arguments: [String], input: String? = nil, home: String = "home") throws -> CommandResult {
            try runCommand(
                "/bin/sh",
                [
                    "-c",
                    "cd '\(directory.path)' && exec '\(DaemonProcess.productsDirectory)/svc-supervisor' "
                        + (arguments + ["--socket-dir", directory.file("sockets")]).map { "'\($0)'" }.joined(
                            separator: " "),
                ],
                environment: ["XDG_STATE_HOME": directory.file(home), "XDG_CACHE_HOME": directory.file("cache")]
                    .merging(
                        SecretRecipientsFixture.environment(in: directory, SecretRecipientsFixture.all(to: "identity"))
                    ) { $1 },
                in: directory, standardInput: input)
        }

        func register() throws {
            let registered = try cli([
                "call", "identity", "register",
                #"{"email": "ada@example.org", "password": "correct horse battery", "displayName": "Ada"}"#,
            ])
            #expect(registered.status == 0, "\(registered.standardError)")
        }

        /// Registers Ada and logs her in twice, from the default home and from `laptop`: two sessions.
        func registerAndLogInTwice() throws {
            try register()
            #expect(try cli(["login", "ada@example.org"], input: "correct horse battery\n").status == 0)
            #expect(
                try cli(["login", "ada@example.org"], input: "correct horse battery\n", home: "laptop").status == 0)
        }
    }

    @Test func password_changesIt_endsEverySession_andForgetsTheStoredOne() throws {
        let fixture = try Fixture()
        defer { fixture.identity.stop() }
        try fixture.registerAndLogInTwice()

        let changed = try fixture.cli(["password"], input: "correct horse battery\na brand new passphrase\n")

        #expect(changed.status == 0, "\(changed.standardError)")
        #expect(changed.standardOutput.contains("2 session(s) ended"), "\(changed.standardOutput)")
        #expect(try fixture.cli(["logout"]).standardOutput.contains("not logged in"), "the stored session is forgotten")
        let laptop = try fixture.cli(["logout"], home: "laptop")
        #expect(laptop.standardError.contains("unauthenticated"), "the other session ended: \(laptop.standardError)")
        #expect(try fixture.cli(["login", "ada@example.org"], input: "correct horse battery\n").status == 1)
        #expect(try fixture.cli(["login", "ada@example.org"], input: "a brand new passphrase\n").status == 0)
    }

    @Test func logoutEverywhere_endsTheSessionsOfEveryDevice() throws {
        let fixture = try Fixture()
        defer { fixture.identity.stop() }
        try fixture.registerAndLogInTwice()

        let everywhere = try fixture.cli(["logout", "--everywhere"])

        #expect(everywhere.status == 0, "\(everywhere.standardError)")
        #expect(everywhere.standardOutput.contains("ended 2 session(s)"), "\(everywhere.standardOutput)")
        let laptop = try fixture.cli(["logout"], home: "laptop")
        #expect(laptop.standardError.contains("unauthenticated"), "\(laptop.standardError)")
    }
}
