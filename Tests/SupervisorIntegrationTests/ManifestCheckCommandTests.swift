import Glibc
import Testing
import VerticalsSupervisor
import VerticalsTesting

/// `svc-supervisor check` end to end: the real binary on real files.
@Suite(.blocking, .serialized) struct ManifestCheckCommandTests {
    let directory = TemporaryDirectory()

    @Test func brokenManifest_listsEveryProblem_andExits65() throws {
        let path = directory.file("broken.toml")
        let text =
            """
            [services.a]
            executable = "/bin/true"
            depends_on = ["b"]
            [services.b]
            executable = "/bin/true"
            depends_on = ["a"]
            restart = "sometimes"
            """
        #expect(writeFile(path, text))
        let result = try runCommand("svc-supervisor", ["check", "--manifest", path], in: directory)
        #expect(result.status == 65)
        #expect(
            result.standardOutput.split(separator: "\n") == [
                "\(path): services.b.restart: must be one of \"always\", \"on-failure\", \"never\", not \"sometimes\"",
                "\(path): services.a.depends_on: dependency cycle: a -> b -> a; no order can start these",
                "2 problems",
            ])
    }

    @Test func aDeclaredSettingNotAllowed_inAServicesEnvOrTheSupervisors_isAProblem() throws {
        let path = directory.file("settings.toml")
        let text =
            """
            [services.a]
            executable = "/bin/true"
            env = { VERTICALS_TLS = "maybe", VERTICALS_LOOPS = "2" }
            """
        #expect(writeFile(path, text))
        let result = try runCommand(
            "svc-supervisor", ["check", "--manifest", path], environment: ["VERTICALS_SERVICE_USERS": "sometimes"],
            in: directory)
        #expect(result.status == 65)
        #expect(
            result.standardOutput.split(separator: "\n") == [
                "\(path): services.a.env: VERTICALS_TLS=maybe is not allowed: expected on, off, off-insecure (unset it for the default)",
                "\(path): svc-supervisor's environment: VERTICALS_SERVICE_USERS=sometimes is not allowed: expected on, off (unset it for the default)",
                "2 problems",
            ], "\(result.standardOutput)")
    }

    @Test func socketPathTooLong_forTheRunDirectory_isAProblem() throws {
        // "/tmp/" + 78 + "/sockets/" is 92 bytes: "ledger.sock" fits (103), "orderhistory.sock" does not (109).
        let path = directory.file("long.toml")
        #expect(
            writeFile(
                path,
                "[services.ledger]\nexecutable = \"/bin/true\"\n[services.orderhistory]\nexecutable = \"/bin/true\"\n"))
        let runDirectory = "/tmp/" + String(repeating: "r", count: 78)
        let result = try runCommand(
            "svc-supervisor", ["check", "--manifest", path, "--run-dir", runDirectory], in: directory)
        #expect(result.status == 65)
        #expect(result.standardOutput.contains("services.orderhistory: its socket path"), "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("services.ledger:"), "\(result.standardOutput)")
    }

    @Test func missingManifest_isAProblem() throws {
        let result = try runCommand(
            "svc-supervisor", ["check", "--manifest", directory.file("none.toml")], in: directory)
        #expect(result.status == 65)
        #expect(result.standardOutput.contains("cannot read the manifest"))
    }

    private func writeFile(_ path: String, _ text: String) -> Bool {
        guard let file = fopen(path, "w") else { return false }
        defer { fclose(file) }
        return fputs(text, file) >= 0
    }
}
