import Glibc
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsSupervisorClient
import VerticalsTesting
@testable import VerticalsSupervisor

extension EngineProcessTests {
    /// Logs: pipes held across restarts, rotation by size and age, kept files, gzip.
    @Suite("logs", .blocking)
    struct Logs {
        @Test func everyProcessWritesIntoTheSamePipe_andNoLineIsLostAcrossARestart() async throws {
            var spec = ServiceSpec.script(
                "writer",
                "echo \"pipe $(readlink /proc/$$/fd/1)\"; "
                    + "i=0; while [ $i -lt 2000 ]; do echo \"n $i\"; i=$((i+1)); done; exit 3")
            spec.backoff = .every(.milliseconds(10))
            spec.budget = RestartBudget(maxRestarts: 1, window: .seconds(60))
            let harness = try EngineHarness([spec])
            try await harness.start()
            try await harness.waitFor("writer", .failed)
            let lines = try #require(readFile(harness.run.log(for: "writer"))).split(separator: "\n").map {
                $0.split(separator: " ", maxSplits: 2).dropFirst().joined(separator: " ")
            }
            let pipes = lines.filter { $0.hasPrefix("stdout pipe ") }
            #expect(pipes.count == 2 && pipes[0] == pipes[1] && pipes[0].contains("pipe:["), "\(pipes)")
            // Each run: its 2000 lines in order, then the note of its end.
            let expected = (0..<2000).map { "stdout n \($0)" }
            let ends = lines.indices.filter {
                lines[$0].hasPrefix("supervisor pid ") && lines[$0].hasSuffix("exited with status 3")
            }
            try #require(ends.count == 2, "\(lines.filter { $0.hasPrefix("supervisor") })")
            #expect(Array(lines[..<ends[0]].filter { $0.hasPrefix("stdout n ") }) == expected)
            #expect(Array(lines[ends[0]..<ends[1]].filter { $0.hasPrefix("stdout n ") }) == expected)
            await harness.shutdown()
        }

        @Test func rotatedFiles_areGzipped_andOnlyKeepOfThemKept() async throws {
            var spec = ServiceSpec.script(
                "rotor", "i=0; while [ $i -lt 300 ]; do echo \"line $i\"; i=$((i+1)); done; echo done; exec sleep 30")
            spec.logMaxBytes = 2_000
            spec.logRotation = LogRotation(keep: 2, compress: true)
            let harness = try EngineHarness([spec])
            try await harness.start()
            let log = harness.run.log(for: "rotor")
            #expect(eventually { (readFile(log) ?? "").contains("stdout done") })
            LogArchive.waitForPending()
            #expect(access(log + ".1.gz", F_OK) == 0 && access(log + ".2.gz", F_OK) == 0)
            #expect(access(log + ".3.gz", F_OK) != 0 && access(log + ".1", F_OK) != 0)
            for archive in [log + ".1.gz", log + ".2.gz"] {
                var info = stat()
                #expect(
                    stat(archive, &info) == 0 && info.st_mode & 0o777 == 0o640,
                    "\(archive): the live log's mode, whatever the umask")
            }
            let newer = try runCommand("/usr/bin/gzip", ["-dc", log + ".1.gz"], in: harness.directory)
            let older = try runCommand("/usr/bin/gzip", ["-dc", log + ".2.gz"], in: harness.directory)
            #expect(newer.status == 0 && older.status == 0, "\(newer.standardError)")
            // Consecutive, oldest first: .2.gz, .1.gz, then the live file.
            let numbers = (older.standardOutput + newer.standardOutput + (readFile(log) ?? "")).split(separator: "\n")
                .compactMap { line in line.split(separator: " ").last.flatMap { Int($0) } }
            #expect(!numbers.isEmpty && numbers == Array(numbers[0]..<(numbers[0] + numbers.count)), "\(numbers)")
            #expect(numbers.last == 299 && numbers[0] > 0)
            await harness.shutdown()
        }

        @Test func aFileOlderThanMaxAge_isRotatedAtTheNextLine() async throws {
            var spec = ServiceSpec.script("aging", "echo first; sleep 1.3; echo second; exec sleep 30")
            spec.logRotation = LogRotation(maxAge: .seconds(1), keep: 1, compress: false)
            let harness = try EngineHarness([spec])
            try await harness.start()
            let log = harness.run.log(for: "aging")
            #expect(eventually(timeout: .seconds(30)) { (readFile(log) ?? "").contains("stdout second") })
            LogArchive.waitForPending()
            let rotated = try #require(readFile(log + ".1"))
            #expect(rotated.contains("stdout first") && !rotated.contains("stdout second"))
            await harness.shutdown()
        }
    }
}
