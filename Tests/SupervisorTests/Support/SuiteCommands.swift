import Glibc
import VerticalsTesting

/// Writes `text` to `path`, e.g. a test's manifest.
func writeText(_ text: String, to path: String) {
    let file = fopen(path, "w")
    fputs(text, file)
    fclose(file)
}

/// Whether `svc-supervisor status --run-dir run` lists exactly `count` services, all ready.
func suiteReady(_ directory: TemporaryDirectory, run: String, services count: Int) -> Bool {
    guard let result = try? runCommand("svc-supervisor", ["status", "--run-dir", run], in: directory) else {
        return false
    }
    let rows = result.standardOutput.split(separator: "\n").dropFirst()
    return result.status == 0 && rows.count == count && rows.allSatisfy { $0.contains(" ready ") }
}
