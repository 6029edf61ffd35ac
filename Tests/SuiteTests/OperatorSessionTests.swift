import Glibc
import Testing
import VerticalsTesting

/// A new operator's first session under `svc-supervisor up`: the first admin, login, a clinic
/// added with the stored token, a backup while serving, a restore refused while running and
/// done once stopped, and a log level changed live.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct OperatorSessionTests {
    static let password = "correct horse battery staple"

    static func manifest(in directory: TemporaryDirectory) -> String {
        let path = directory.file("suite.toml")
        let text = """
            [defaults]
            env = { IDENTITY_PWHASH_OPSLIMIT = "1", IDENTITY_PWHASH_MEMLIMIT = "8192" }
            [services.identity]
            executable = "svc-identity"
            receives = ["sessions", "first_admin", "password", "roles", "logout"]
            [services.clinics]
            executable = "svc-clinics"
            depends_on = ["identity"]
            """
        let file = fopen(path, "w")
        fputs(text, file)
        fclose(file)
        return path
    }

    /// The CLI of a suite `up` under `directory`, as the operator runs it.
    struct Session {
        let directory: TemporaryDirectory
        var run: String { directory.file("run") }
        /// The supervisor's standard error.
        var supervisorLog: String { directory.file("supervisor.log") }

        /// The supervisor's audit lines for `operation` so far.
        func auditLines(_ operation: String) -> [Substring] {
            (readFile(supervisorLog) ?? "").split(separator: "\n").filter {
                $0.contains("audit service=supervisor operation=\(operation) ")
            }
        }

        func cli(_ arguments: [String], input: String? = nil) throws -> CommandResult {
            try runCommand(
                "svc-supervisor", arguments,
                environment: ["XDG_STATE_HOME": directory.file("home"), "VERTICALS_RUN_DIR": run],
                in: directory, standardInput: input)
        }

        /// The state `status` reports for `name`, if it answers.
        func state(_ name: String) -> String? {
            guard let status = try? cli(["status"]), status.status == 0 else { return nil }
            return status.standardOutput.split(separator: "\n").first { $0.hasPrefix(name + " ") }?
                .split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map(String.init)
        }

        /// How many clinics named Hill Top Clinic clinics finds.
        func hillClinics() throws -> Int {
            let found = try cli(["call", "clinics", "search", #"{"name": "Hill Top"}"#])
            #expect(found.status == 0, "\(found.standardError)")
            return found.standardOutput.components(separatedBy: "Hill Top Clinic").count - 1
        }

        /// Creates the Hill Top Clinic.
        func createHillClinic() throws {
            let created = try cli([
                "call", "clinics", "create",
                #"{"name": "Hill Top Clinic", "address": "1 Hill St, Leeds", "latitude": 53.8, "longitude": -1.55, "timeZone": "Europe/London", "services": ["gp"]}"#,
            ])
            #expect(created.status == 0, "\(created.standardError)")
        }

        /// Runs `body` with the suite up and an admin logged in; takes the suite down after.
        static func withSuite(_ body: (Session) throws -> Void) throws {
            let session = Session(directory: TemporaryDirectory())
            let manifest = OperatorSessionTests.manifest(in: session.directory)
            // At notice, the supervisor's log holds its audit lines (Session.auditLines).
            let supervisor = try DaemonProcess(
                "svc-supervisor", ["up", "--manifest", manifest, "--run-dir", session.run],
                environment: ["VERTICALS_LOG_LEVEL": "notice"], stderrPath: session.supervisorLog)
            defer {
                _ = try? runCommand("svc-supervisor", ["down", "--run-dir", session.run], in: session.directory)
                supervisor.stop()
            }
            #expect(
                eventually(timeout: .seconds(30)) {
                    ["identity", "clinics"].allSatisfy { session.state($0) == "ready" }
                })
            let password = OperatorSessionTests.password
            #expect(try session.cli(["admin", "create", "ops@example.org"], input: password + "\n").status == 0)
            #expect(try session.cli(["login", "ops@example.org"], input: password).status == 0)
            try body(session)
        }
    }

    @Test func firstSession_adminLoginCallBackupRestoreLogLevel() throws {
        try Session.withSuite { session in
            let directory = session.directory
            func cli(_ arguments: [String]) throws -> CommandResult { try session.cli(arguments) }
            let state = session.state
            let hillClinics = session.hillClinics
            let backup = try cli(["backup", "clinics", directory.file("backups")])
            #expect(backup.status == 0, "\(backup.standardError)")
            let file = try #require(backup.standardOutput.split(separator: " ").dropFirst().first.map(String.init))
            try session.createHillClinic()
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

    /// The file a CLI line `NAME: PATH (N bytes)` or `… kept as PATH (…` names.
    static func path(in output: String, after marker: String) -> String? {
        guard let range = output.range(of: marker) else { return nil }
        return output[range.upperBound...].split(separator: " ").first.map(String.init)
    }

    /// Restore: the store a restore replaces comes back whole (the clinic still only in its
    /// `-wal` included) by restoring the file `restore` printed; another vertical's backup is refused
    /// naming both; backups are owner-only, and two in one second do not collide.
    @Test func restore_roundTrip_bringsBackTheStateBefore_andAnotherVerticalsBackupIsRefused() throws {
        try Session.withSuite { session in
            let backups = session.directory.file("backups")
            let runs = try [("clinics", 1), ("clinics", 2), ("identity", 1)].map { name, _ in
                try session.cli(["backup", name, backups])
            }
            let paths = runs.compactMap { Self.path(in: $0.standardOutput, after: ": ") }
            for run in runs { #expect(run.status == 0, "\(run.standardError)") }
            #expect(Set(paths).count == 3, "two backups collided: \(paths)")
            for path in paths {
                var info = stat()
                #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600, "\(path) is not owner-only")
            }
            try #require(paths.count == 3)
            try session.createHillClinic()
            #expect(try session.cli(["stop", "clinics"]).status == 0)
            #expect(eventually { session.state("clinics") == "stopped" })

            let foreign = try session.cli(["restore", "clinics", paths[2]])
            let restored = try session.cli(["restore", "clinics", paths[0]])
            #expect(try session.cli(["start", "clinics"]).status == 0)
            #expect(eventually(timeout: .seconds(20)) { session.state("clinics") == "ready" })
            let withoutTheClinic = try session.hillClinics()

            #expect(foreign.status == 65, "\(foreign.standardError)")
            #expect(foreign.standardError.contains("identity's store, not clinics's"), "\(foreign.standardError)")
            #expect(restored.status == 0, "\(restored.standardError)")
            #expect(withoutTheClinic == 0)
            let kept = try #require(
                Self.path(in: restored.standardOutput, after: "kept as "), "\(restored.standardOutput)")
            #expect(try session.cli(["stop", "clinics"]).status == 0)
            #expect(eventually { session.state("clinics") == "stopped" })
            let back = try session.cli(["restore", "clinics", kept])
            #expect(back.status == 0, "\(back.standardError)")
            #expect(try session.cli(["start", "clinics"]).status == 0)
            #expect(eventually(timeout: .seconds(20)) { session.state("clinics") == "ready" })
            #expect(try session.hillClinics() == 1, "the clinic created before the restore is back")

            // The supervisor puts the backup in place, so each restore is one audit line there
            // with the operator's uid and how it ended.
            let audits = session.auditLines("supervisor.restore")
            #expect(audits.count == 3, "\(audits)")
            #expect(audits.first?.contains("outcome=invalidInput") == true, "\(audits)")
            #expect(
                audits.dropFirst().allSatisfy { $0.contains("outcome=ok") && $0.contains("caller_uid=\(getuid())") })
        }
    }
}
