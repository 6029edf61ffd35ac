import Glibc
import Testing
import VerticalsTesting

/// The reference suite under `svc-supervisor up` as root, with a user per vertical.
///
/// Users and the operator group carry a test-unique prefix (manifest `user`,
/// `VERTICALS_OPERATOR_GROUP`) and are deleted afterwards; the programs are linked or copied into
/// a 0755 folder, which every service user can reach.
struct UserPerVerticalSuite {
    /// The prefix of the users and of the operator group (`<prefix>ops`).
    let prefix: String
    /// The folder of the programs, the manifest and the run directory.
    let directory: TemporaryDirectory
    /// The programs' folder.
    let bin: String
    /// The supervisor's run directory.
    var run: String { directory.file("run") }

    /// Runs `body` once each of `services` is ready under the manifest `manifest(prefix)` gives;
    /// stops the suite and deletes its accounts afterwards. `tag` starts the prefix, so that a
    /// leftover account names its test.
    static func run(
        tag: String, services: [String], manifest: (_ prefix: String) -> String,
        _ body: (UserPerVerticalSuite) async throws -> Void
    ) async throws {
        let prefix = "\(tag)-\(String(UInt32.random(in: 0...UInt32.max), radix: 36))-"
        let directory = TemporaryDirectory()
        defer { deleteAccounts(prefix: prefix, in: directory) }
        chmod(directory.path, 0o755)
        let bin = directory.file("bin")
        mkdir(bin, 0o755)
        for program in ["svc-supervisor", "svc-supervisor-engine", "vt-exec"] + services.map({ "svc-\($0)" }) {
            let source = "\(DaemonProcess.productsDirectory)/\(program)"
            if link(source, "\(bin)/\(program)") != 0 {
                let copied = try runCommand("/bin/cp", [source, "\(bin)/\(program)"], in: directory)
                #expect(copied.status == 0, "cp \(program): \(copied.standardError)")
            }
        }
        let manifestFile = directory.file("suite.toml")
        let file = fopen(manifestFile, "w")
        fputs(manifest(prefix), file)
        fclose(file)
        let run = directory.file("run")
        let supervisor = try DaemonProcess(
            "\(bin)/svc-supervisor", ["up", "--manifest", manifestFile, "--run-dir", run],
            environment: ["VERTICALS_SERVICE_USERS": "on", "VERTICALS_OPERATOR_GROUP": "\(prefix)ops"])
        defer {
            _ = try? runCommand("\(bin)/svc-supervisor", ["down", "--run-dir", run], in: directory)
            supervisor.waitForExit(timeout: .seconds(15))
            supervisor.stop()
        }
        let ready = eventually(timeout: .seconds(60)) {
            let rows = status(bin: bin, run: run, in: directory)
            return services.allSatisfy { rows[$0]?.state == "ready" }
        }
        #expect(ready, "every vertical ready: \(readFile("\(run)/logs/identity.log") ?? "")")
        guard ready else { return }
        try await body(UserPerVerticalSuite(prefix: prefix, directory: directory, bin: bin))
    }

    /// `svc-supervisor call VERTICAL OPERATION JSON` run as the user of vertical `user`, in the
    /// operator group.
    func call(as user: String, _ vertical: String, _ operation: String, _ json: String) throws -> CommandResult {
        // Copied out at once: getpwnam's answer lives in a buffer the next look-up (another test's) reuses.
        let uid = try #require(getpwnam(prefix + user)).pointee.pw_uid
        let gid = try #require(getpwnam(prefix + user)).pointee.pw_gid
        let operatorGID = try #require(getgrnam(prefix + "ops")).pointee.gr_gid
        return try runCommand(
            "/usr/bin/setpriv",
            [
                "--reuid=\(uid)", "--regid=\(gid)", "--groups=\(operatorGID)",
                "\(bin)/svc-supervisor", "call", "--socket-dir", "\(run)/sockets", vertical, operation, json,
            ],
            in: directory)
    }

    /// Each service's state and process, as `svc-supervisor status` shows them.
    func status() -> [String: (state: String, pid: Int32?)] {
        Self.status(bin: bin, run: run, in: directory)
    }

    static func status(bin: String, run: String, in directory: TemporaryDirectory) -> [String: (
        state: String, pid: Int32?
    )] {
        guard
            let result = try? runCommand(
                "\(bin)/svc-supervisor", ["status", "--run-dir", run], in: directory, timeout: .seconds(5))
        else { return [:] }
        return SupervisedSuite.rows(ofStatus: result.standardOutput)
    }

    /// Deletes every user and group whose name starts with `prefix`.
    static func deleteAccounts(prefix: String, in directory: TemporaryDirectory) {
        for (file, tool) in [("/etc/passwd", "/usr/sbin/userdel"), ("/etc/group", "/usr/sbin/groupdel")] {
            for line in (readFile(file) ?? "").split(separator: "\n") {
                let name = String(line.split(separator: ":", maxSplits: 1).first ?? "")
                if name.hasPrefix(prefix) { _ = try? runCommand(tool, [name], in: directory) }
            }
        }
    }
}
