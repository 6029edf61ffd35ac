import Glibc
import Testing
import VerticalsServiceKit
import VerticalsTesting
import VerticalsSharedTesting

/// `svc-supervisor` with one set of manners, without a supervisor: where it looks for the suite,
/// sysexits, `--version`, `--help`. Real argv, the real binary.
@Suite("svc-supervisor's manners without a supervisor", .blocking)
struct CLIMannersTests {
    @Test func status_withNothingFound_saysWhereItLooked_andHowToPointAtTheSuite() throws {
        let directory = TemporaryDirectory()
        let pointers = directory.file("pointers")
        _ = mkdir(pointers, 0o755)
        // A pointer whose supervisor is gone: ignored, and said to be stale.
        writeText("/tmp/elsewhere/run\n\(Int32.max)\n", to: "\(pointers)/supervisor-run-dir")
        let result = try runIn(directory.path, ["status"], environment: ["VERTICALS_POINTER_DIR": pointers], directory)
        #expect(result.status == 69)
        // As root, never the current folder's .run: the socket folder of the suite systemd runs
        // (none here: the framework's own, /run/verticals) instead.
        let fallback = geteuid() == 0 ? "/run/verticals" : ".run"
        #expect(result.standardError.contains("no supervisor at \(fallback)/supervisor.sock: start it with `make run`"))
        #expect(result.standardError.contains("\(pointers)/supervisor-run-dir (stale: its supervisor is gone)"))
        let lastTried =
            geteuid() == 0
            ? "/run/verticals (as root, never .run in the current folder; suite verticals: "
            : ".run in \(directory.path)"
        #expect(result.standardError.contains(lastTried), "\(result.standardError)")
        #expect(result.standardError.contains("pass --run-dir DIR or set VERTICALS_RUN_DIR=DIR"))
    }

    @Test func operations_ofAnUnknownVertical_exits64_namingTheKnownOnes() throws {
        let directory = TemporaryDirectory()
        let result = try runCommand("svc-supervisor", ["operations", "nosuch"], in: directory)
        #expect(result.status == 64)
        #expect(result.standardError.contains("no vertical named \"nosuch\"; known: "), "\(result.standardError)")
    }

    @Test func up_withAnInvalidManifest_exits65_asCheckDoes() throws {
        let directory = TemporaryDirectory()
        let manifest = directory.file("suite.toml")
        writeText("[services.a]\nexecutable = \"vt-testd\"\ndepends_on = [\"b\"]\n", to: manifest)
        let check = try runCommand("svc-supervisor", ["check", "--manifest", manifest], in: directory)
        let up = try runCommand(
            "svc-supervisor", ["up", "--manifest", manifest, "--run-dir", directory.file("run")], in: directory)
        #expect(check.status == 65)
        #expect(up.status == 65, "\(up.standardError)")
        #expect(up.standardError.contains("services.a.depends_on"), "\(up.standardError)")
    }

    @Test func version_printsTheSuiteVersion() throws {
        let directory = TemporaryDirectory()
        let result = try runCommand("svc-supervisor", ["--version"], in: directory)
        #expect(result.status == 0)
        #expect(result.standardOutput == "svc-supervisor \(DaemonArguments.suiteVersion)\n")
    }

    @Test func help_groupsEveryCommandByPurpose_underOneHeadingEach() throws {
        let directory = TemporaryDirectory()
        let result = try runCommand("svc-supervisor", ["--help"], in: directory)
        #expect(result.status == 0)
        // The CLI's command names under each heading, as `--help` lists them.
        let groups: [String: [String]] = [
            "SUITE": "up status down reload metrics trace",
            "SERVICES": "start stop restart upgrade logs log-level",
            "CALLS": "call open operations describe routes login logout password admin",
            "DATA": "backup restore", "DEPLOY": "check can-i-deploy export certs", "DEVELOPMENT": "new init",
        ].mapValues { $0.split(separator: " ").map(String.init) }
        // Each heading, then the command names listed under it up to the next heading.
        var listed: [String: [String]] = [:]
        var heading: String?
        for line in result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasSuffix(" SUBCOMMANDS:") {
                heading = String(line.dropLast(" SUBCOMMANDS:".count))
            } else if line.isEmpty || !line.hasPrefix(" ") {
                heading = nil
            } else if let heading, line.hasPrefix("  "), !line.hasPrefix("   "),
                let name = line.split(separator: " ").first
            {
                listed[heading, default: []].append(String(name))
            }
        }
        #expect(listed == groups, "\(result.standardOutput)")
    }

    @Test(arguments: [
        ["status"], ["start"], ["stop"], ["restart"], ["reload"], ["down"], ["logs"], ["metrics"], ["call"], ["open"],
        ["describe"], ["log-level"], ["login"], ["logout"], ["admin", "create"], ["admin", "grant"], ["backup"],
        ["trace"],
    ])
    func help_ofEveryCommandThatFindsTheSuite_saysWhereItLooks(command: [String]) throws {
        let directory = TemporaryDirectory()
        let result = try runCommand(
            "svc-supervisor", command + ["--help"], environment: ["COLUMNS": "400"], in: directory)
        #expect(result.status == 0)
        let help = result.standardOutput
        #expect(help.contains("--run-dir") && help.contains("$VERTICALS_RUN_DIR"), "\(help)")
        #expect(help.contains("/run/verticals") && help.contains("$VERTICALS_POINTER_DIR"), "\(help)")
    }
}

/// Runs svc-supervisor with `arguments` in `folder` as its working directory (the harness runs
/// every command in the test process's own folder, the checkout, where a `.run` may be).
func runIn(
    _ folder: String, _ arguments: [String], environment: [String: String] = [:], _ directory: TemporaryDirectory
) throws -> CommandResult {
    let quoted = arguments.map { argument in
        "'" + argument.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }.joined(separator: " ")
    return try runCommand(
        "/bin/sh", ["-c", "cd '\(folder)' && exec '\(DaemonProcess.productsDirectory)/svc-supervisor' \(quoted)"],
        environment: environment, in: directory)
}
