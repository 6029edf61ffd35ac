import Glibc
import Testing
import VerticalsTesting

/// `svc-supervisor logout` with a stored token its vertical no longer honours (revoked already):
/// the refusal is noted, the token forgotten anyway, and the command succeeds.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct LogoutRevokedSessionTests {
    @Test func logout_ofARevokedToken_notesTheRefusal_forgetsIt_andSucceeds() throws {
        try OperatorSessionTests.Session.withSuite { session in
            let stored = session.directory.file("home") + "/verticals/session.json"
            let kept = try #require(readFile(stored), "login stores its token at \(stored)")
            let first = try session.cli(["logout"])
            #expect(first.status == 0, "\(first.standardError)")
            #expect(readFile(stored) == nil)
            // The same token again, as another terminal that logged in with it would still hold it.
            let file = fopen(stored, "w")
            fputs(kept, file)
            fclose(file)
            chmod(stored, 0o600)
            let again = try session.cli(["logout"])
            #expect(again.status == 0, "\(again.standardError)")
            #expect(again.standardError.hasPrefix("note: "), "\(again.standardError)")
            #expect(again.standardOutput.contains("logged out"), "\(again.standardOutput)")
            #expect(readFile(stored) == nil, "the refused token is forgotten")
        }
    }
}
