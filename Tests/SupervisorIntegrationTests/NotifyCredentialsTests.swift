import Glibc
import Synchronization
import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsEventLoop
@testable import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting
import VerticalsWire

/// What the notify socket's text may carry to `status` and the logs: nothing a terminal obeys.
struct PrintableTextTests {
    @Test(arguments: [
        ("plain text", "plain text"),
        ("\u{1B}[1;31mred\u{1B}[0m", "red"),
        ("\u{1B}]0;owned title\u{07}serving", "serving"),
        ("\u{1B}]8;;http://evil\u{1B}\\link\u{1B}]8;;\u{1B}\\", "link"),
        ("\u{1B}P+q544e\u{1B}\\after", "after"),
        ("tab\there\rcarriage\u{7F}del\u{00}nul", "tabherecarriagedelnul"),
        ("c1 \u{9B}2Jcsi \u{9D}osc\u{9C}st \u{85}nel", "c1 csi st nel"),
        ("\u{1B}(Bcharset \u{1B}7saved", "charset saved"),
        ("bidi \u{202E}desrever\u{202C} \u{2066}iso\u{2069}", "bidi desrever iso"),
        ("marks \u{200E}lrm\u{200F}rlm\u{061C}alm", "marks lrmrlmalm"),
        ("one line\u{2028}split\u{2029}twice", "one linesplittwice"),
        ("unterminated \u{1B}]0;title without end", "unterminated "),
        ("trailing escape \u{1B}", "trailing escape "),
        ("ünïcödé ✓ 日本", "ünïcödé ✓ 日本"),
    ])
    func of_dropsControlsAndWholeEscapeSequences_keepsEveryPrintableCharacter(input: String, expected: String) {
        #expect(PrintableText.of(input) == expected)
    }

    @Test func notifyMessage_valuesArrivePrintable_andMAINPIDIsOnlyText() {
        let message = NotifyMessage(
            senderPID: 42, senderUID: 1000, text: "STATUS=\u{1B}[2Jwarm\u{07}ed up\nMAINPID=7\nnoise")
        #expect(message["STATUS"] == "warmed up")
        #expect(message["MAINPID"] == "7")
        #expect(message.senderPID == 42 && message.senderUID == 1000, "the sender is the kernel's, not the text's")
        #expect(message.assignments.count == 2, "a line without = is ignored")
    }
}

extension EngineProcessTests {
    /// The notify socket believes the kernel's credentials, never a `MAINPID=` a sender claims.
    @Suite("notify credentials", .blocking)
    struct NotifyCredentials {
        /// Sends one datagram to `socket` from a process of `uid`:`gid` that exits at once
        /// (`setpriv`, Python from its 0755 path); returns its exit status.
        static func forge(_ text: String, to socket: String, uid: UInt32, gid: UInt32, in directory: TemporaryDirectory)
            throws -> CommandResult
        {
            let sender = """
                import socket, sys
                socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(sys.argv[2].encode(), sys.argv[1])
                """
            return try runCommand(
                "/usr/bin/setpriv",
                ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "/usr/bin/python3", "-c", sender, socket, text],
                in: directory, timeout: .seconds(20))
        }

        /// Runs `body` while the engine's loop is held, so that what `body` sends is read only
        /// after its senders have exited: the case where a sender's pid names nobody any more.
        /// Returns once the loop has turned twice more, by which time it has read what was sent.
        static func withLoopHeld(_ harness: EngineHarness, _ body: () throws -> Void) throws {
            let held = Atomic<Bool>(false)
            let released = Atomic<Bool>(false)
            #expect(
                harness.loop.execute {
                    held.store(true, ordering: .releasing)
                    let limit = ContinuousClock.now + .seconds(30)
                    while !released.load(ordering: .acquiring) && ContinuousClock.now < limit { usleep(2_000) }
                })
            do {
                defer { released.store(true, ordering: .releasing) }
                #expect(eventually(timeout: .seconds(30)) { held.load(ordering: .acquiring) }, "the loop was held")
                try body()
            }
            for _ in 0..<2 {
                let turned = Atomic<Bool>(false)
                #expect(harness.loop.execute { turned.store(true, ordering: .releasing) })
                #expect(eventually(timeout: .seconds(30)) { turned.load(ordering: .acquiring) }, "the loop turned")
            }
        }

        @Test(.enabled(if: geteuid() == 0, "needs root: runs the service as its own user and forges from other uids"))
        func
            forgedDatagrams_fromAnotherUID_andFromTheServicesUIDButAnotherPID_areIgnored_andAHungDaemonIsStillRestarted()
            async throws
        {
            let (accounts, directory, bin) = try UserPerVerticalProcessTests.Host().parts
            let run = RunDirectory(directory.file("run"))
            let harness = try EngineHarness(
                // A generous timeout: a loaded machine must not fail a check before the forgery.
                [Liveness.checked("stuck", timeout: .seconds(5))], runDirectory: run.path, programDirectory: bin,
                serviceUsers: accounts.users)
            try await harness.start()
            try await harness.waitFor("stuck", .ready)
            let pid = try #require(try await harness.status("stuck").pid)
            let uid = try #require(accounts.uid("stuck"))
            let gid = try #require(getpwuid(uid)).pointee.pw_gid

            // Each names the service's pid and says what would switch liveness off, with escapes
            // in its status text; each sender has exited before the supervisor reads it, so its
            // pid names nobody (the case a MAINPID= fallback credited).
            let forged = "STATUS=\u{1B}[2J\u{1B}]0;forged\u{07}forged\nSTOPPING=1\nWATCHDOG=1\nMAINPID=\(pid)"
            try Self.withLoopHeld(harness) {
                let stranger = try Self.forge(forged, to: run.notifySocket, uid: 65534, gid: 65534, in: directory)
                #expect(stranger.status == 0, "sent from uid 65534: \(stranger.standardError)")
                let sibling = try Self.forge(forged, to: run.notifySocket, uid: uid, gid: gid, in: directory)
                #expect(sibling.status == 0, "sent from the service's uid, another pid: \(sibling.standardError)")
            }
            let after = try await harness.status("stuck")
            #expect(after.state == .ready && after.pid == pid, "\(after)")
            #expect(
                !after.statusText.contains("forged") && after.statusText != "stopping on its own", "\(after.statusText)"
            )

            // Liveness is still on: the deadlocked daemon is killed for it and started again.
            let client = try RawClient(path: run.socket(for: "stuck"), receiveTimeout: .milliseconds(150))
            try client.sendRequest(id: 1, operation: "stuck.wedge", body: Empty().encodedBody())
            try await harness.waitFor("stuck", .backoff, timeout: .seconds(45))
            try await harness.waitFor("stuck", .ready, count: 2)
            let restarted = try await harness.status("stuck")
            #expect(restarted.lastExit.hasPrefix("liveness: no answer to daemon.health"), "\(restarted.lastExit)")
            #expect(
                !restarted.lastExit.contains("forged") && !restarted.lastExit.contains("\u{1B}"),
                "\(restarted.lastExit)")
            let log = readFile(run.log(for: "stuck")) ?? ""
            #expect(!log.contains("\u{1B}") && !log.contains("forged"), "\(log)")
            await harness.shutdown()
        }

        @Test func statusText_fromTheServicesOwnProcess_reachesStatus_withoutAnyControlCharacter() async throws {
            let text = "READY=1\nSTATUS=\u{1B}[1;31mwarm\u{1B}]0;title\u{07}ed\u{9B}2J \u{202E}up\u{1B}[0m\r"
            let harness = try EngineHarness([.notifyingScript("painter", sends: text, then: "exec sleep 30")])
            try await harness.start()
            try await harness.waitFor("painter", .ready)
            let status = try await harness.status("painter")
            #expect(status.statusText == "warmed up", "\(status.statusText.unicodeScalars.map(\.value))")
            await harness.shutdown()
        }

        @Test func lastExit_fromTheServicesStderr_reachesStatus_withoutAnyControlCharacter() async throws {
            let harness = try EngineHarness([
                .script("shouter", "printf 'boom \\033[2J\\033]0;title\\007failed\\r\\n' >&2; exit 3")
            ])
            try await harness.start()
            try await harness.waitFor("shouter", .backoff)
            let status = try await harness.status("shouter")
            #expect(status.lastExit.hasSuffix("boom failed"), "\(status.lastExit.unicodeScalars.map(\.value))")
            await harness.shutdown()
        }

        @Test func datagramFromAChildOfTheService_isNotItsMainProcess_andIsIgnored() async throws {
            // The script's main process stays a shell: its child sends READY=1 naming the
            // script's pid, and exits. Neither its pid nor its claim makes it the service.
            var spec = ServiceSpec.script(
                "helper",
                "/usr/bin/python3 -c 'import os, socket; socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)"
                    + ".sendto(b\"READY=1\\nMAINPID=%d\" % os.getppid(), os.environ[\"NOTIFY_SOCKET\"])'; sleep 30",
                readiness: .notify)
            spec.readyTimeout = .seconds(2)
            let harness = try EngineHarness([spec])
            try await harness.start()
            try await harness.waitFor("helper", .starting)
            let failed = try await harness.waitFor("helper", .backoff, timeout: .seconds(30))
            #expect(harness.events(of: "helper").allSatisfy { $0.state != .ready }, "never ready")
            let status = try await harness.status("helper")
            #expect(status.lastExit.contains("not ready within"), "\(status.lastExit)")
            #expect(failed.state == .backoff)
            await harness.shutdown()
        }
    }
}
