import Glibc
import Synchronization
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsSupervisor
import VerticalsTesting
import VerticalsWire

extension EngineProcessTests {
    /// The Supervisor contract served on `<run>/supervisor.sock` over a real engine, called
    /// with the typed client as the CLI does.
    @Suite("control socket", .blocking)
    struct Control {
        /// An engine plus its control host, and a client on a loop of its own.
        final class Served {
            let harness: EngineHarness
            let host: ServiceHost
            let clientLoop: EventLoop
            let client: ServiceClient
            let nextManifest = Locked<Manifest?>(nil)
            let downCalled = Locked(false)

            init(_ services: [ServiceSpec]) async throws {
                harness = try EngineHarness(services)
                let engine = harness.engine
                let nextManifest = self.nextManifest
                let downCalled = self.downCalled
                let router = ControlEndpoint.routes(
                    engine: engine,
                    reload: {
                        guard let manifest = nextManifest.value.withLock({ $0 }) else {
                            throw ServiceError(.invalidInput, "no manifest")
                        }
                        return try await engine.apply(manifest)
                    },
                    down: { downCalled.value.withLock { $0 = true } })
                host = ServiceHost(
                    configuration: HostConfiguration(
                        name: "supervisor", socketDirectory: SocketDirectory(harness.run.path)),
                    router: router, loop: harness.loop)
                try await host.start()
                try await harness.start()
                clientLoop = try EventLoop(name: "control-client")
                client = ServiceClient(loop: clientLoop, sockets: SocketDirectory(harness.run.path))
            }

            func close() async {
                client.close()
                clientLoop.shutdown()
                await host.stop()
                await harness.shutdown()
            }
        }

        @Test func status_start_stop_restart_overTheControlSocket() async throws {
            let served = try await Served([.testd("alpha"), .testd("beta", dependsOn: ["alpha"])])
            #expect(fileExists(served.harness.run.controlSocket))
            try await served.harness.waitFor("beta", .ready)

            let list = try await served.client.call(Supervisor.status, Empty())
            #expect(list.services.map(\.name) == ["alpha", "beta"])
            #expect(list.services.allSatisfy { $0.state == .ready && $0.ready && $0.pid != nil })

            let stopped = try await served.client.call(Supervisor.stop, .init(name: "beta"))
            #expect(stopped.state == .stopped && stopped.pid == nil)
            #expect(
                stopped.lastExit.contains("status 0") || stopped.lastExit.contains("SIGTERM"), "\(stopped.lastExit)")

            let started = try await served.client.call(Supervisor.start, .init(name: "beta"))
            #expect(started.state == .starting)
            try await served.harness.waitFor("beta", .ready, count: 2)

            let before = try #require(try await served.harness.status("alpha").pid)
            let restarted = try await served.client.call(Supervisor.restart, .init(name: "alpha"))
            #expect(restarted.pid != nil && restarted.pid != before)

            do {
                _ = try await served.client.call(Supervisor.stop, .init(name: "gamma"))
                Issue.record("stopping an unknown service succeeded")
            } catch {
                #expect(error.code == .notFound)
                #expect(error.message.contains("alpha, beta"))
            }
            await served.close()
        }

        @Test func reload_startsAdded_stopsRemoved_restartsChanged_leavesTheRestAlone() async throws {
            let served = try await Served([
                .testd("keep"), .testd("change"), .script("drop", "exec sleep 30"),
            ])
            for name in ["keep", "change", "drop"] { try await served.harness.waitFor(name, .ready) }
            let keepPID = try await served.harness.status("keep").pid
            let changePID = try await served.harness.status("change").pid

            var changed = ServiceSpec.testd("change")
            changed.environment = ["GREETING": "hello"]
            served.nextManifest.value.withLock {
                $0 = Manifest(services: [.testd("keep"), changed, .script("add", "exec sleep 30")])
            }
            let result = try await served.client.call(Supervisor.reload, Empty())
            #expect(result.added == ["add"] && result.removed == ["drop"])
            #expect(result.changed == ["change"] && result.unchanged == ["keep"])

            try await served.harness.waitFor("add", .ready)
            try await served.harness.waitFor("change", .ready, count: 2)
            #expect(try await served.harness.status("keep").pid == keepPID)
            #expect(try await served.harness.status("change").pid != changePID)
            let names = try await served.client.call(Supervisor.status, Empty()).services.map(\.name)
            #expect(names == ["keep", "change", "add"])
            await served.close()
        }

        @Test func down_stopsEverything_thenSaysSo() async throws {
            let served = try await Served([.testd("alpha"), .testd("beta", dependsOn: ["alpha"])])
            try await served.harness.waitFor("beta", .ready)
            _ = try await served.client.call(Supervisor.down, Empty(), timeout: .seconds(30))
            #expect(served.downCalled.value.withLock { $0 })
            let states = try await served.client.call(Supervisor.status, Empty()).services.map(\.state)
            #expect(states == [.stopped, .stopped])
            #expect(EngineHarness.processes(taggedWith: served.harness.tag).isEmpty)
            await served.close()
        }
    }
}

/// A value shared with `@Sendable` closures.
final class Locked<Value: Sendable>: Sendable {
    let value: Mutex<Value>
    init(_ initial: Value) { value = Mutex(initial) }
}

private func fileExists(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0
}
