import Foundation
import Glibc
import Testing
import VerticalsEventLoop
import VerticalsTesting
@testable import VerticalsSupervisor

extension EngineProcessTests {
    /// A service that needs nothing of vt-exec's but a session and PDEATHSIG starts in place,
    /// without it (a vfork-style clone, no second exec); anything more, or `VERTICALS_SPAWN=shim`, goes through vt-exec.
    /// A vt-exec path that does not exist tells the two apart.
    @Suite("starting in place or through vt-exec", .blocking)
    struct Launching {
        static let missingShim = "/nonexistent/vt-exec"

        @Test func aServiceWithNoUserOrLimit_startsInPlace_inASessionOfItsOwn_withItsPidInLISTEN_PID() async throws {
            var spec = ServiceSpec.script("plain", "exec sleep 30")
            spec.socket = true
            let harness = try EngineHarness([spec]) { configuration in
                configuration.execShim = Self.missingShim
                configuration.spawnsThroughShim = false // also under VERTICALS_SPAWN=shim
            }
            try await harness.start()
            try await harness.waitFor("plain", .ready)
            let pid = try #require(try await harness.status("plain").pid)
            #expect(getsid(Int32(pid)) == Int32(pid))
            // The in-place start returns while the child is still in execve (the script's shell,
            // then its `exec sleep`): its new environment shows in /proc a moment later, and reads
            // empty while an exec replaces it, so both entries are looked for in one reading.
            #expect(
                eventually {
                    let environment = Self.environment(of: Int32(pid))
                    return environment.contains("LISTEN_PID=\(pid)") && environment.contains("LISTEN_FDS=1")
                })
            let record = try #require(readFile(harness.run.pidFile(for: "plain")))
            #expect(record.contains("\(pid)"), "\(record)")
            await harness.shutdown()
        }

        /// `/proc/PID/environ`, one entry a line; empty while it cannot be read.
        static func environment(of pid: Int32) -> [Substring] {
            ((try? String(contentsOfFile: "/proc/\(pid)/environ", encoding: .utf8)) ?? "").split(separator: "\0")
        }

        /// The `lastExit` of `spec` (never restarted) under an engine whose vt-exec is missing:
        /// it names vt-exec when the start went through it.
        private func lastExitWithoutVtExec(_ spec: ServiceSpec, spawnsThroughShim: Bool = false) async throws -> String
        {
            var spec = spec
            spec.restart = .never
            let harness = try EngineHarness([spec]) { configuration in
                configuration.execShim = Self.missingShim
                configuration.spawnsThroughShim = spawnsThroughShim
            }
            try await harness.start()
            try await harness.waitFor(spec.name, .failed)
            let lastExit = try await harness.status(spec.name).lastExit
            await harness.shutdown()
            return lastExit
        }

        @Test func aServiceWithALimit_stillGoesThroughVtExec() async throws {
            var spec = ServiceSpec.script("limited", "exec sleep 30")
            spec.limits = ResourceLimits(openFiles: 100)
            let lastExit = try await lastExitWithoutVtExec(spec)
            #expect(lastExit.contains(Self.missingShim), "\(lastExit)")
        }

        @Test func spawnsThroughShim_sendsEveryServiceThroughVtExec() async throws {
            let lastExit = try await lastExitWithoutVtExec(.script("plain", "exec sleep 30"), spawnsThroughShim: true)
            #expect(lastExit.contains(Self.missingShim), "\(lastExit)")
        }

        @Test func aMissingProgram_startedInPlace_failsToStartNamingTheExecStep() async throws {
            var spec = ServiceSpec(name: "ghost", executable: "/nonexistent/svc-ghost")
            spec.socket = false
            let lastExit = try await lastExitWithoutVtExec(spec)
            #expect(lastExit.contains("cannot start /nonexistent/svc-ghost: spawn: exec: ENOENT"), "\(lastExit)")
        }
    }
}
