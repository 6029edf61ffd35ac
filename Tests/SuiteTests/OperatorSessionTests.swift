import Glibc
import ProcessTesting
import Testing

/// A new operator's first session under `svc-supervisor up`: the first admin, login, a clinic
/// added with the stored token, a backup while serving, a restore refused while running and
/// done once stopped, and a log level changed live.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct OperatorSessionTests {
    static let password = "correct horse battery staple"

    static func manifest(in directory: TemporaryDirectory) -> String {
        let path = directory.file("suite.toml")
        let text = """
            [defaults]
            env = { IDENTITY_PWHASH_OPSLIMIT = "1", IDENTITY_PWHASH_MEMLIMIT = "8192" }
            [services.identity]
            executable = "svc-identity"
            [services.clinics]
            executable = "svc-clinics"
            depends_on = ["identity"]
            """
        let file = fopen(path, "w")
        fputs(text, file)
        fclose(file)
        return path
    }

    @Test func firstSession_adminLoginCallBackupRestoreLogLevel() throws {
        let directory = TemporaryDirectory()
        let run = directory.file("run")
        let home = directory.file("home")
        let supervisor = try DaemonProcess("svc-supervisor", ["up", "--manifest", Self.manifest(in: directory), "--run-dir", run])
        defer {
            _ = try? runCommand("svc-supervisor", ["down", "--run-dir", run], in: directory)
            supervisor.stop()
        }
        func cli(_ arguments: [String], input: String? = nil) throws -> CommandResult {
            try runCommand(
                "svc-supervisor", arguments, environment: ["XDG_STATE_HOME": home, "VERTICALS_RUN_DIR": run],
                in: directory, standardInput: input)
        }
        func state(_ name: String) -> String? {
            guard let status = try? cli(["status"]), status.status == 0 else { return nil }
            return status.standardOutput.split(separator: "\n").first { $0.hasPrefix(name + " ") }?
                .split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map(String.init)
        }
        func hillClinics() throws -> Int {
            let found = try cli(["call", "clinics", "search", #"{"name": "Hill Top"}"#])
            #expect(found.status == 0, "\(found.standardError)")
            return found.standardOutput.components(separatedBy: "Hill Top Clinic").count - 1
        }
        #expect(eventually(timeout: .seconds(30)) { state("identity") == "ready" && state("clinics") == "ready" })

        #expect(try cli(["admin", "create", "ops@example.org"], input: Self.password + "\n").status == 0)
        #expect(try cli(["login", "ops@example.org"], input: Self.password).status == 0)
        let backup = try cli(["backup", "clinics", directory.file("backups")])
        #expect(backup.status == 0, "\(backup.standardError)")
        let file = try #require(backup.standardOutput.split(separator: " ").dropFirst().first.map(String.init))
        let created = try cli([
            "call", "clinics", "create",
            #"{"name": "Hill Top Clinic", "address": "1 Hill St, Leeds", "latitude": 53.8, "longitude": -1.55, "timeZone": "Europe/London", "services": ["gp"]}"#,
        ])
        #expect(created.status == 0, "\(created.standardError)")
        #expect(try hillClinics() == 1)

        let whileRunning = try cli(["restore", "clinics", file])
        #expect(whileRunning.status == 75)
        #expect(whileRunning.standardError.contains("stop it first"), "\(whileRunning.standardError)")
        #expect(try cli(["stop", "clinics"]).status == 0)
        #expect(eventually { state("clinics") == "stopped" })
        let restored = try cli(["restore", "clinics", file])
        #expect(restored.status == 0, "\(restored.standardError)")
        #expect(try cli(["start", "clinics"]).status == 0)
        #expect(eventually(timeout: .seconds(20)) { state("clinics") == "ready" })
        #expect(try hillClinics() == 0, "the clinic added after the backup is gone")

        let level = try cli(["log-level", "clinics", "debug"])
        #expect(level.status == 0, "\(level.standardError)")
        #expect(
            level.standardOutput.hasPrefix("clinics: ") && level.standardOutput.contains(" → debug"),
            "\(level.standardOutput)")
        #expect(try cli(["log-level", "clinics"]).standardOutput.contains("clinics: debug"))
    }
}
