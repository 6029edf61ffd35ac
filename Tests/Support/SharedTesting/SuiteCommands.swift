import Testing
import Glibc
import VerticalsTesting

/// Writes `text` to `path`, e.g. a test's manifest.
public func writeText(_ text: String, to path: String) {
    // Close-on-exec: a child another test spawns meanwhile must not keep this file open for
    // writing, or a script written here could not be run ("Text file busy").
    let file = fopen(path, "we")
    fputs(text, file)
    fclose(file)
}

/// Writes `<directory>/suite.toml`, vt-testd as `alpha` (its table going on with `alpha`, whole
/// lines) and as `beta` followed by `extra` (which may go on with keys of beta's), and returns its
/// path.
public func testdManifest(in directory: TemporaryDirectory, alpha: String = "", extra: String = "") -> String {
    let path = directory.file("suite.toml")
    writeText(
        """
        [services.alpha]
        executable = "vt-testd"
        args = ["alpha"]
        \(alpha)[services.beta]
        executable = "vt-testd"
        args = ["beta"]

        """ + extra, to: path)
    return path
}

/// ``testdManifest(in:alpha:extra:)`` where `alpha` depends on and calls `beta`, the two run as
/// `nobody` and `games` (Debian's unprivileged accounts) when the tests run as root; beta's table
/// goes on with `betaExtra`.
public func relayManifest(in directory: TemporaryDirectory, betaExtra: String = "") -> String {
    testdManifest(
        in: directory, alpha: "depends_on = [\"beta\"]\nuser = \"nobody\"\n",
        extra: "user = \"games\"\n\(betaExtra)\n")
}

/// Whether `svc-supervisor status --run-dir run` lists exactly `count` services, all ready.
public func suiteReady(_ directory: TemporaryDirectory, run: String, services count: Int) -> Bool {
    guard let result = try? runCommand("svc-supervisor", ["status", "--run-dir", run], in: directory) else {
        return false
    }
    // The rows under the table's header (the line above it names the suite).
    let rows = result.standardOutput.split(separator: "\n").drop { !$0.hasPrefix("NAME ") }.dropFirst()
    return result.status == 0 && rows.count == count && rows.allSatisfy { $0.contains(" ready ") }
}
