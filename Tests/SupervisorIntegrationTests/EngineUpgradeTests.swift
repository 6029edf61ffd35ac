import GRDB
import Glibc
import Synchronization
import VerticalsClient
import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting
import VerticalsWire
import VerticalsSharedTesting

extension EngineProcessTests {
    /// `upgrade` with vt-testd as a vertical with a store (`VT_TESTD_MIGRATIONS`):
    /// the hand-over under calls, a new process that fails before it (the old one serves on), one
    /// that fails after it (the previous executable again, the store backup put back), and a
    /// migrating build's backup. Every wait is for a fact, bounded.
    @Suite("upgrade", .blocking)
    struct Upgrade {
        /// vt-testd as vertical `name`, with a store of `migrations` migrations.
        static func stored(_ name: String, migrations: Int = 1) -> ServiceSpec {
            var spec = ServiceSpec.testd(name)
            spec.environment = ["VT_TESTD_MIGRATIONS": String(migrations)]
            return spec
        }

        /// A program that runs vt-testd with `environment` added: a "new build" of it.
        static func build(_ directory: TemporaryDirectory, _ name: String, _ environment: [String: String]) -> String {
            let path = directory.file(name)
            let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                separator: " ")
            writeText(
                "#!/bin/sh\nexec env \(assignments) \"\(DaemonProcess.productsDirectory)/vt-testd\" \"$@\"\n", to: path)
            chmod(path, 0o755)
            return path
        }

        /// The migrations the store of `name` lists, from its file.
        static func migrations(_ harness: EngineHarness, _ name: String) throws -> [String] {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(
                path: harness.run.stateDirectory(for: name) + "/\(name).sqlite", configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
            }
        }

        /// Calls `echo` of `service` in a loop on a client of its own until stopped; counts answers
        /// by the pid that served them, and every error.
        final class Caller: Sendable {
            let served = Mutex<[Int: Int]>([:])
            let errors = Mutex<[String]>([])
            let stop = Atomic<Bool>(false)

            func run(_ client: ServiceClient, _ service: String) async {
                var index = 0
                while !stop.load(ordering: .relaxed) {
                    index += 1
                    do {
                        let output = try await client.call(
                            TestEcho(service: service).echo, .init(text: "call \(index)"), timeout: .seconds(20))
                        served.withLock { $0[output.servedBy, default: 0] += 1 }
                    } catch {
                        errors.withLock { $0.append("\(error)") }
                    }
                    try? await Task.sleep(for: .milliseconds(2))
                }
            }
        }

        @Test func upgrade_handsTheSocketAndStoreOver_withoutAnErrorToCallers() async throws {
            let harness = try EngineHarness([Self.stored("kept")])
            try await harness.start()
            try await harness.waitFor("kept", .ready)
            let old = try #require(try await harness.status("kept").pid)
            let loop = try EventLoop(name: "upgrade-callers")
            defer { loop.shutdown() }
            let caller = Caller()
            var clients: [ServiceClient] = []
            var tasks: [Task<Void, Never>] = []
            for _ in 0..<4 {
                let client = ServiceClient(loop: loop, sockets: SocketDirectory(harness.run.socketDirectory))
                clients.append(client)
                tasks.append(Task { await caller.run(client, "kept") })
            }
            #expect(
                eventually { caller.served.withLock { $0[Int(old), default: 0] } >= 20 },
                "the old process served nothing")

            let result = try await harness.engine.upgradeService("kept", executable: nil)
            #expect(result.oldPid == Int(old) && result.newPid != Int(old), "\(result)")
            #expect(result.backup == nil, "the same build migrates nothing")
            // A store to wait for: the gap is real, and the old process drained. (The drain is timed
            // to its exit, which may be seen after the new process's READY=1: the new one takes the
            // store as soon as the old one closes it, before the old one has finished exiting.)
            #expect(result.gapSeconds > 0 && result.drainSeconds > 0, "\(result)")
            let status = try await harness.status("kept")
            #expect(status.state == .ready && status.pid == result.newPid, "\(status)")
            #expect(
                eventually { caller.served.withLock { $0[result.newPid, default: 0] } >= 20 },
                "the new process served nothing")
            caller.stop.store(true, ordering: .relaxed)
            for task in tasks { await task.value }
            for client in clients { client.close() }
            #expect(
                caller.errors.withLock { $0 }.isEmpty, "callers saw errors: \(caller.errors.withLock { $0.prefix(3) })")
            #expect(kill(Int32(old), 0) != 0, "the old process is still there")
            // Told apart in the log: the hand-over and the outcome.
            let log = readFile(harness.run.log(for: "kept")) ?? ""
            #expect(
                log.contains("upgrade: hand-over: stopping pid \(old)")
                    && log.contains("upgraded: pid \(old) → pid \(result.newPid)"))
            print("upgrade of vt-testd with a store: \(result)")
            await harness.shutdown()
        }

        @Test func upgrade_ofAVerticalWithoutAStore_leavesCallersNoGap() async throws {
            let harness = try EngineHarness([.testd("bare")])
            try await harness.start()
            try await harness.waitFor("bare", .ready)
            let old = try #require(try await harness.status("bare").pid)
            let result = try await harness.engine.upgradeService("bare", executable: "vt-testd")
            #expect(
                result.oldPid == Int(old) && result.gapSeconds == 0,
                "the new process served before the old one stopped: \(result)")
            #expect(try await harness.status("bare").pid == result.newPid)
            await harness.shutdown()
        }

        @Test func newProcessThatFailsBeforeTheHandOver_leavesTheOldOneServing() async throws {
            let harness = try EngineHarness([Self.stored("steady")])
            try await harness.start()
            try await harness.waitFor("steady", .ready)
            let old = try #require(try await harness.status("steady").pid)
            do {
                _ = try await harness.engine.upgradeService("steady", executable: "/bin/false")
                Issue.record("an upgrade to /bin/false succeeded")
            } catch let error as ServiceError {
                #expect(error.code == .unavailable, "\(error)")
                #expect(
                    error.message.contains("before the hand-over") && error.message.contains("pid \(old) still serves"),
                    "\(error.message)")
                #expect(error.message.contains("exited with status 1"), "\(error.message)")
            }
            let status = try await harness.status("steady")
            #expect(status.state == .ready && status.pid == Int(old), "\(status)")
            let client = try RawClient(path: harness.run.socket(for: "steady"), receiveTimeout: .seconds(10))
            let output = try EngineProcessTests.OnDemand.echo(client, service: "steady", id: 1, text: "still here")
            #expect(output.servedBy == Int(old))
            // Nothing changed: the next restart runs the manifest's program, and only one process stopped.
            #expect(!harness.events(of: "steady").contains { $0.state == .stopping })
            await harness.shutdown()
        }

        @Test func newProcessThatFailsAfterTheHandOver_isReplacedByThePreviousExecutable_withTheStoreBackupPutBack()
            async throws
        {
            let harness = try EngineHarness([Self.stored("fragile")])
            try await harness.start()
            try await harness.waitFor("fragile", .ready)
            let old = try #require(try await harness.status("fragile").pid)
            #expect(try Self.migrations(harness, "fragile") == ["v1"])
            // A new build that migrates the store (v2), then fails before it serves.
            let broken = Self.build(
                harness.directory, "broken-build", ["VT_TESTD_MIGRATIONS": "2", "VT_TESTD_FAIL_AFTER_STORE": "1"])
            do {
                _ = try await harness.engine.upgradeService("fragile", executable: broken)
                Issue.record("the broken build was taken")
            } catch let error as ServiceError {
                #expect(error.code == .unavailable, "\(error)")
                #expect(error.message.contains("after the hand-over"), "\(error.message)")
                #expect(error.message.contains("exited with status 70"), "\(error.message)")
                #expect(error.message.contains("was put back"), "\(error.message)")
                #expect(error.message.contains("rolled back"), "\(error.message)")
            }
            // The previous build serves again, on the store as it was: had v2 stayed in it, that
            // build would refuse it (a newer schema) and fail.
            let status = try await harness.status("fragile")
            #expect(status.state == .ready && status.pid != nil && status.pid != Int(old), "\(status)")
            let client = try RawClient(path: harness.run.socket(for: "fragile"), receiveTimeout: .seconds(10))
            #expect(
                try EngineProcessTests.OnDemand.echo(client, service: "fragile", id: 1, text: "back").servedBy
                    == status.pid)
            #expect(try Self.migrations(harness, "fragile") == ["v1"])
            let state = FolderEntries.names(in: harness.run.stateDirectory(for: "fragile"))
            #expect(state.contains { $0.hasPrefix("fragile.before-upgrade-") }, "no backup beside the store: \(state)")
            // The migrated store is kept in the supervisor's own folder, never the vertical's.
            let replaced = FolderEntries.names(in: harness.run.replacedStoresDirectory(for: "fragile"))
            #expect(
                replaced.contains { $0.hasPrefix("fragile.before-restore-") },
                "the migrated store was not kept: \(replaced)")
            #expect(
                !state.contains { $0.hasPrefix("fragile.before-restore-") }, "kept in the vertical's folder: \(state)")
            // A restart runs the previous program again, not the broken one.
            _ = try await harness.engine.restartService("fragile")
            try await harness.waitFor("fragile", .ready, count: 3)
            await harness.shutdown()
        }

        @Test func migratingBuild_backsTheStoreUpFirst_andRunsFromThenOn() async throws {
            let harness = try EngineHarness([Self.stored("grows")])
            try await harness.start()
            try await harness.waitFor("grows", .ready)
            let newer = Self.build(harness.directory, "newer-build", ["VT_TESTD_MIGRATIONS": "2"])
            let result = try await harness.engine.upgradeService("grows", executable: newer)
            let backup = try #require(result.backup, "a migrating build made no backup")
            #expect(access(backup, R_OK) == 0)
            #expect(try Self.migrations(harness, "grows") == ["v1", "v2"])
            #expect(result.executable == newer)
            // The new build is the service's program now: a restart keeps it (v2 stays readable).
            _ = try await harness.engine.restartService("grows")
            try await harness.waitFor("grows", .ready, count: 3)
            let restarted = try await harness.status("grows")
            #expect(restarted.state == .ready, "\(restarted); \(harness.events(of: "grows").map(\.description))")
            await harness.shutdown()
        }

        @Test func upgrade_refusesAServiceThatIsNotReady_andAProgramThatCannotRun() async throws {
            let harness = try EngineHarness([Self.stored("steady")])
            try await harness.start()
            try await harness.waitFor("steady", .ready)
            _ = try await harness.engine.stopService("steady")
            do {
                _ = try await harness.engine.upgradeService("steady", executable: nil)
                Issue.record("a stopped service was upgraded")
            } catch let error as ServiceError {
                #expect(error.code == .conflict && error.message.contains("only a ready service"), "\(error)")
            }
            _ = try await harness.engine.startService("steady")
            try await harness.waitFor("steady", .ready, count: 2)
            do {
                _ = try await harness.engine.upgradeService("steady", executable: "/nonexistent/svc-steady")
                Issue.record("a missing program was taken")
            } catch let error as ServiceError {
                #expect(error.code == .invalidInput, "\(error)")
            }
            do {
                _ = try await harness.engine.upgradeService("nobody", executable: nil)
                Issue.record("an unknown service was upgraded")
            } catch let error as ServiceError {
                #expect(error.code == .notFound, "\(error)")
            }
            await harness.shutdown()
        }
    }
}
