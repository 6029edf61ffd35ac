import Glibc
import Testing
import VerticalsContract
import VerticalsSupervisorClient
import VerticalsTesting
@testable import VerticalsSupervisor

extension EngineProcessTests {
    /// The supervisor writes where each kind of secret goes into its run folder, for a CLI that
    /// may not ask it, and writes it again when a reload changes the manifest's `receives`.
    @Suite("the run folder's secrets file")
    struct SecretsFile {
        @Test func start_writesTheManifestsReceives_intoTheRunFolder() async throws {
            var accounts = ServiceSpec.script("accounts", "exec sleep 600")
            accounts.receives = [.sessions, .password]
            let harness = try EngineHarness([accounts, .script("quiet", "exec sleep 600")])
            try await harness.start()
            let path = harness.run.secretRecipientsFile
            let text = try #require(readFile(path), "no \(path)")
            #expect(SecretRecipientsFile.parse(text) == [.sessions: "accounts", .password: "accounts"])
            var info = stat()
            #expect(lstat(path, &info) == 0 && info.st_mode & 0o777 == 0o644 && info.st_uid == geteuid())
            await harness.shutdown()
        }
    }
}
