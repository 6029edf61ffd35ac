import Glibc
import Synchronization
import Testing
import VerticalsContract
import VerticalsTesting
@testable import VerticalsSupervisor

extension EngineProcessTests {
    /// A vertical may write without pause, to its output or to the notify socket: the loop reads
    /// a bounded amount of each at a wake-up, so `status`, the other services and `down` go on.
    @Suite("a flood of output or datagrams", .blocking)
    struct Flood {
        /// Whether `harness`'s engine, of two services, answers `status` twenty times within a
        /// minute. When it does not, its loop is held: the flooding processes are killed, so that
        /// the shutdown can run.
        static func answersStatus(_ harness: EngineHarness) async -> (kept: Bool, answers: Int) {
            let engine = harness.engine
            let services = 2
            let answered = Atomic<Int>(0)
            let asking = Task {
                while !Task.isCancelled {
                    if (try? await engine.status().count) == services { answered.add(1, ordering: .relaxed) }
                }
            }
            // Waited for without holding a thread of the pool, which the asking task needs.
            let kept = await eventuallyAsync(timeout: .seconds(60), every: .milliseconds(20)) {
                answered.load(ordering: .relaxed) >= 20
            }
            asking.cancel()
            if !kept { for pid in EngineHarness.processes(taggedWith: harness.tag) { kill(pid, SIGKILL) } }
            return (kept, answered.load(ordering: .relaxed))
        }

        @Test func aServiceWritingWithoutPause_leavesStatusAnswered_andStopsOnRequest() async throws {
            let flood = ServiceSpec.script("flood", "yes 'a line the vertical writes again and again' & exec yes")
            let harness = try EngineHarness([flood, .script("quiet", "exec sleep 600")])
            try await harness.start()
            try await harness.waitFor("flood", .ready)
            // With the pipe drained to its end at each wake-up, not one answer came within minutes.
            let (kept, answers) = await Self.answersStatus(harness)
            #expect(kept, "status answered \(answers) times in 60 s while a service flooded")
            if kept { #expect(try await harness.status("quiet").state == .ready) }
            // Stopped only once something of the flood is logged: twenty answers can come before
            // the supervisor has read a line of it.
            let log = harness.run.log(for: "flood")
            _ = eventually(timeout: .seconds(30)) { (readFile(log) ?? "").contains("stdout ") }
            await harness.shutdown()
            // The flood rotates the log every few seconds: what it wrote last is in the current
            // file, or, when a rotation came last, in the one before it.
            LogArchive.waitForPending()
            let current = readFile(log) ?? ""
            let rotated = [true, false].contains { access(LogArchive.name(log, 1, compressed: $0), F_OK) == 0 }
            #expect(
                current.contains("stdout y\n") || current.contains("stdout a line the vertical writes") || rotated,
                "nothing of the flood was logged")
        }

        @Test func aFloodOfNotifyDatagrams_leavesStatusAnswered() async throws {
            // Four processes of one service, each sending as fast as it can.
            let sender =
                "import os, socket\nsock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)\nsock.setblocking(False)\n"
                + "while True:\n    try: sock.sendto(b\"STATUS=flooding\", os.environ[\"NOTIFY_SOCKET\"])\n"
                + "    except OSError: pass\n"
            let flood = ServiceSpec.script(
                "notifier",
                "for i in 1 2 3; do /usr/bin/python3 -c '\(sender)' & done; exec /usr/bin/python3 -c '\(sender)'")
            let harness = try EngineHarness([flood, .script("quiet", "exec sleep 600")])
            try await harness.start()
            try await harness.waitFor("quiet", .ready)
            let (kept, answers) = await Self.answersStatus(harness)
            #expect(kept, "status answered \(answers) times in 60 s while datagrams flooded")
            await harness.shutdown()
        }
    }
}
