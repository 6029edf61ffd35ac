import Glibc
import Testing
import VerticalsTesting

/// `svc-supervisor login` against the reference suite's identity served on TCP through
/// `VERTICALS_ENDPOINT_<NAME>` (CLIEndpointTests covers `call` over the test daemon).
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct CLIEndpointSuiteTests {
    /// `login` finds the vertical that issues sessions among the suite's verticals, one named
    /// only by `VERTICALS_ENDPOINT_IDENTITY` included (no socket, no supervisor here): it used
    /// to look in the socket folder alone, so identity on another host could not be logged in to.
    /// Over plain TCP nobody vouches for the listener, so the password is not sent: the refusal
    /// says so, naming identity, the vertical found.
    @Test func login_findsIdentityOnTCP_throughVERTICALS_ENDPOINT_andSendsNoPasswordOverPlainTCP() throws {
        let directory = TemporaryDirectory()
        let port = try freeLoopbackPort()
        let state = directory.file("state")
        #expect(mkdir(state, 0o700) == 0)
        let daemon = try DaemonProcess(
            "svc-identity",
            environment: [
                "VERTICALS_SOCKET_DIR": directory.file("sockets"), "VERTICALS_LISTEN": "tcp:127.0.0.1:\(port)",
                "VERTICALS_TLS": "off", "STATE_DIRECTORY": state,
            ])
        defer { daemon.stop() }
        #expect(eventually { (try? RawClient(host: "127.0.0.1", port: port)) != nil }, "never listened on \(port)")
        let environment = [
            "VERTICALS_ENDPOINT_IDENTITY": "tcp:127.0.0.1:\(port)", "VERTICALS_TLS": "off",
            "VERTICALS_SOCKET_DIR": directory.file("sockets"), "XDG_CACHE_HOME": directory.file("cache"),
            "XDG_STATE_HOME": directory.file("state-home"), "HOME": directory.path,
        ].merging(SecretRecipientsFixture.environment(in: directory, "sessions = identity")) { $1 }
        let password = "correct horse battery"
        let registered = try runCommand(
            "svc-supervisor",
            [
                "call", "identity", "register",
                #"{"email": "pat@example.org", "password": "\#(password)", "displayName": "Pat"}"#,
            ],
            environment: environment, in: directory)
        // A password in a call's Input is a credential too: it goes only to a checked listener.
        #expect(registered.status != 0, "\(registered.standardOutput)")
        #expect(
            registered.standardError.contains("over plain TCP nobody vouches for the listener"),
            "\(registered.standardError)")
        let login = try runCommand(
            "svc-supervisor", ["login", "pat@example.org"], environment: environment, in: directory,
            standardInput: password + "\n")
        #expect(login.status != 0, "\(login.standardError)")
        #expect(
            login.standardError.contains("identity at tcp:127.0.0.1:\(port) is not to be trusted"),
            "\(login.standardError)")
        #expect(
            login.standardError.contains("over plain TCP nobody vouches for the listener"), "\(login.standardError)")
    }
}
