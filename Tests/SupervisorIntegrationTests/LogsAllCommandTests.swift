import Glibc
import Testing
import VerticalsSupervisor
import VerticalsTesting
import VerticalsWire

extension EngineProcessTests {
    /// `svc-supervisor logs --all [-f]`: every service's lines, by time, named.
    @Suite("logs --all", .blocking)
    struct LogsAll {
        static func writer(_ name: String, lines: Int, delay: String = "0") -> ServiceSpec {
            .script(
                name,
                "sleep \(delay); i=0; while [ $i -lt \(lines) ]; do echo \"\(name) $i\"; i=$((i+1)); sleep 0.1; done; "
                    + "exec sleep 30")
        }

        /// The output's lines of the services' own stdout, as (service, time, text).
        static func parsed(_ output: String) -> [(service: String, time: Int64, text: String)] {
            output.split(separator: "\n").compactMap { line in
                let words = line.split(separator: " ", omittingEmptySubsequences: true)
                guard words.count >= 4, words[2] == "stdout", let stamp = RFC3339.parse(String(words[1])) else {
                    return nil
                }
                return (String(words[0]), stamp.microsecondsSinceEpoch, words[3...].joined(separator: " "))
            }
        }

        @Test func all_interleavesEveryServicesLinesByTime_eachNamed() async throws {
            let harness = try EngineHarness([
                Self.writer("alpha", lines: 3), Self.writer("beta", lines: 3, delay: "0.05"),
            ])
            try await harness.start()
            #expect(eventually { (readFile(harness.run.log(for: "beta")) ?? "").contains("beta 2") })
            let result = try runCommand(
                "svc-supervisor", ["logs", "--all", "-n", "100", "--run-dir", harness.directory.path],
                in: harness.directory)
            #expect(result.status == 0, "\(result.standardError)")
            let lines = Self.parsed(result.standardOutput)
            #expect(
                Set(lines.map(\.text)) == ["alpha 0", "alpha 1", "alpha 2", "beta 0", "beta 1", "beta 2"],
                "\(result.standardOutput)")
            #expect(lines.allSatisfy { $0.text.hasPrefix($0.service + " ") })
            #expect(lines.map(\.time) == lines.map(\.time).sorted(), "\(result.standardOutput)")
            #expect(Set(lines.map(\.service)).count == 2)
            await harness.shutdown()
        }

        @Test func allFollow_printsNewLinesOfEveryService_asTheyCome_inTimeOrder() async throws {
            // Writers for a minute, so lines keep coming however late the follower starts.
            let harness = try EngineHarness([
                Self.writer("gamma", lines: 600), Self.writer("delta", lines: 600, delay: "0.05"),
            ])
            try await harness.start()
            try await harness.waitFor("delta", .ready)
            // Follows until it has printed three lines of each (not for a fixed second, which a
            // loaded machine spent starting it), then is stopped: with `-n 0`, everything it
            // printed came while following.
            let outputPath = harness.directory.file("follow.out")
            let follower = try DaemonProcess(
                "/bin/sh",
                [
                    "-c", "exec \"$0\" logs --all -f -n 0 --run-dir \"$1\" > \"$2\"",
                    "\(DaemonProcess.productsDirectory)/svc-supervisor", harness.directory.path, outputPath,
                ])
            let enough = eventually(timeout: .seconds(60)) {
                let lines = Self.parsed(readFile(outputPath) ?? "")
                return lines.filter { $0.service == "gamma" }.count >= 3
                    && lines.filter { $0.service == "delta" }.count >= 3
            }
            follower.stop()
            let output = readFile(outputPath) ?? ""
            let lines = Self.parsed(output)
            #expect(enough, "\(output)")
            #expect(lines.allSatisfy { $0.text.hasPrefix($0.service + " ") })
            #expect(lines.map(\.time) == lines.map(\.time).sorted(), "\(output)")
            await harness.shutdown()
        }

        @Test func allAndAName_isAUsageError() async throws {
            let directory = TemporaryDirectory()
            let both = try runCommand(
                "svc-supervisor", ["logs", "ledger", "--all", "--run-dir", directory.path], in: directory)
            #expect(both.status == 64 && both.standardError.contains("not both"), "\(both.standardError)")
            let neither = try runCommand("svc-supervisor", ["logs", "--run-dir", directory.path], in: directory)
            #expect(neither.status == 64 && neither.standardError.contains("--all"), "\(neither.standardError)")
        }
    }
}
