import Glibc
import Testing
import VerticalsTesting

/// A second daemon pointed at a store a running one serves: refused with the first one's pid,
/// which keeps serving; `--check` passes without opening the store; the operator sees why.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct OneWriterPerStoreTests {
    @Test func secondIdentity_onOneStateDirectory_exitsNamingTheFirst_whichKeepsServing() throws {
        let directory = TemporaryDirectory()
        let identity = try LoneVertical(
            "identity", in: directory, sockets: "a", extra: ReferenceSuiteSettings.fastPasswordHashing)
        let first = identity.daemon
        defer { first.stop() }
        let socket = identity.socket
        var environment = identity.environment

        // Its own sockets, the same STATE_DIRECTORY.
        environment["VERTICALS_SOCKET_DIR"] = directory.file("b")
        let second = try runCommand("svc-identity", [], environment: environment, in: directory)
        let check = try runCommand("svc-identity", ["--check"], environment: environment, in: directory)

        #expect(second.status == 78, "\(second.standardError)")
        #expect(
            second.standardError.hasPrefix("svc-identity: cannot start: the store ")
                && second.standardError.contains("another process, svc-identity (pid \(first.pid)), is serving it")
                && second.standardError.contains("STATE_DIRECTORY"), "\(second.standardError)")
        #expect(access(directory.file("b/identity.sock"), F_OK) != 0, "the second never served")
        #expect(check.status == 0, "\(check.standardError)")
        #expect(
            check.standardOutput.contains("held by running pid \(first.pid)")
                && check.standardOutput.contains("not opened by the check"), "\(check.standardOutput)")

        let client = try RawClient(path: socket)
        try client.sendRequest(id: 1, operation: "daemon.health", body: [])
        guard case .message(let answer) = client.receive() else {
            Issue.record("the first identity stopped answering")
            return
        }
        #expect(answer.envelope.kind == .response && answer.envelope.correlationID == 1)

        // Once it is gone, the store is free again: the check opens and migrates it.
        first.stop()
        let after = try runCommand("svc-identity", ["--check"], environment: environment, in: directory)
        #expect(after.status == 0 && after.standardOutput.contains("opened and migrated"), "\(after.standardOutput)")
    }
}
