import Glibc
import Testing
import VerticalsTesting

/// The documented commands work as written: each `svc-supervisor …` line of docs/operations.md's
/// "Using the suite" runs through `sh` against a live suite under svc-supervisor, in order, and
/// exits 0.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ReadmeCommandTests {
    /// The package root, where docs/ and deploy/suite.toml (for `svc-supervisor check`) are.
    static let packageRoot = String(#filePath).split(separator: "/").dropLast(3).map { "/" + $0 }.joined()

    /// The page whose "Using the suite" section a reader pastes from.
    static let page = packageRoot + "/docs/operations.md"

    /// Why a command is not run, or nil to run it. Each rule is explicit and says why.
    static func skipReason(_ command: String) -> String? {
        // Follows the log for ever: `logs` without -f is the same code and runs.
        if command.hasPrefix("svc-supervisor logs"), command.contains(" -f") || command.contains("--follow") {
            return "follows for ever"
        }
        // The supervisor's streams follow for ever too; the control tests prove their events.
        if command.hasPrefix("svc-supervisor call supervisor watch") || command.hasPrefix("svc-supervisor call supervisor logs") {
            return "a stream that follows for ever"
        }
        // Ends the very suite the later lines need.
        if command.hasPrefix("svc-supervisor down") { return "stops the suite" }
        // Write to /var/backups (outside the test's folder) and need an earlier backup's file
        // (`clinics-….sqlite`); backup and restore have their own tests.
        if command.contains("svc-supervisor backup") || command.contains("svc-supervisor restore") {
            return "writes outside the test's folder"
        }
        // Runs a second supervisor in the foreground, or writes into the checkout.
        let words = command.split(separator: " ")
        if words.count > 1, ["up", "export", "new", "init"].contains(words[1]) {
            return "not a command against the running suite"
        }
        // A value an earlier answer gives the reader ($APPOINTMENT_ID, $TOKEN).
        if command.contains("$") { return "needs a shell variable from an earlier answer" }
        return nil
    }

    @Test(arguments: [
        ("svc-supervisor logs clinics -n 20 -f", true), ("svc-supervisor logs clinics -n 20", false),
        ("svc-supervisor down", true), ("svc-supervisor up --manifest m.toml", true),
        ("svc-supervisor backup clinics /var/backups/v", true), (#"svc-supervisor open "x/$ID""#, true),
        ("svc-supervisor status", false), ("svc-supervisor restart notifications", false),
        ("svc-supervisor call supervisor watch", true), ("svc-supervisor call clinics nearest '{}'", false),
    ])
    func skipList_skipsOnlyWhatItNames(command: String, skipped: Bool) {
        #expect((Self.skipReason(command) != nil) == skipped)
    }

    @Test func extraction_joinsWrappedArguments_dropsComments_andKeepsToItsSections() {
        let readme = """
            ## Elsewhere
            ```sh
            svc-supervisor status
            ```
            ## Using the suite
            ```sh
            svc-supervisor call clinics create '{"name": "Hill",   # inside quotes: not a comment
                "latitude": 53.8}'   # the token is attached
            svc-supervisor stop clinics && svc-supervisor start \\
                clinics             # continued
            svc-identity --help     # not svc-supervisor
            ```
            ### Sub-section
            ```sh
            svc-supervisor routes   # every route
            ```
            """
        let create = #"svc-supervisor call clinics create '{"name": "Hill",   # inside quotes: not a comment "#
        #expect(
            ReadmeCommands.extract(from: readme) == [
                create + #""latitude": 53.8}'"#,
                "svc-supervisor stop clinics && svc-supervisor start clinics",
                "svc-supervisor routes",
            ])
    }

    @Test func everyCommandOfUsingTheSuite_exitsZero_againstALiveSuite() async throws {
        let page = try #require(readFile(Self.page), "\(Self.page) is missing")
        let commands = ReadmeCommands.extract(from: page)
        // A page reshaped so that nothing is found must fail here, not pass with nothing run.
        #expect(commands.count >= 15, "\(commands)")
        #expect(commands.contains { $0.hasPrefix("svc-supervisor call clinics create") }, "\(commands)")

        let suite = try SupervisedSuite()
        try await suite.up()
        defer { suite.down() }
        #expect(await suite.waitUntilAllReady())
        let environment = [
            "PATH": "\(DaemonProcess.productsDirectory):/usr/bin:/bin",
            "VERTICALS_RUN_DIR": suite.run,
            "XDG_STATE_HOME": suite.directory.file("state-home"),
            "HOME": suite.directory.path,
        ]
        var ran = 0
        for command in commands where Self.skipReason(command) == nil {
            // The password `admin create` and `login` read from standard input; others ignore it.
            let result = try runCommand(
                "/bin/sh", ["-c", "cd '\(Self.packageRoot)' && \(command)"], environment: environment,
                in: suite.directory, standardInput: "operator-password-1\n", timeout: .seconds(30))
            #expect(result.status == 0, "\(command)\n\(result.standardError)\n\(result.standardOutput.suffix(600))")
            ran += 1
        }
        #expect(ran >= 12)
    }
}
