import Glibc
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsSupervisor
import VerticalsTesting

extension EngineProcessTests {
    /// OTP's restart strategies, with the order of stops and starts read from the engine's events.
    @Suite("restart strategies", .blocking)
    struct Strategies {
        static func quick(_ spec: ServiceSpec, _ strategy: RestartStrategy = .oneForOne, group: String? = nil)
            -> ServiceSpec
        {
            var spec = spec
            spec.strategy = strategy
            spec.group = group
            spec.backoff = .every(.milliseconds(20))
            return spec
        }

        /// The index in the harness's event log of the `count`th time `service` entered `state`.
        static func index(
            _ harness: EngineHarness, _ service: String, _ state: Supervisor.ServiceState, _ count: Int
        ) throws -> Int {
            let matching = harness.events.enumerated().filter {
                $0.element.service == service && $0.element.state == state
            }
            try #require(matching.count >= count, "\(service) \(state) ×\(count): \(harness.events)")
            return matching[count - 1].offset
        }

        static func pid(_ harness: EngineHarness, _ service: String) async throws -> Int {
            try #require(try await harness.status(service).pid)
        }

        /// Starts `harness` and waits until each of `services` is ready.
        static func startReady(_ harness: EngineHarness, _ services: [String]) async throws {
            try await harness.start()
            for name in services { try await harness.waitFor(name, .ready) }
        }

        /// Kills `victim` and waits until `last` is ready a second time: the strategy's restart is
        /// over. Returns ``index(_:_:_:_:)`` over the harness, to compare the order of its events.
        static func killAndAwaitRestart(_ harness: EngineHarness, _ victim: String, until last: String)
            async throws -> (String, Supervisor.ServiceState, Int) throws -> Int
        {
            kill(Int32(try await pid(harness, victim)), SIGKILL)
            try await harness.waitFor(last, .ready, count: 2)
            return { name, state, count in try index(harness, name, state, count) }
        }

        @Test func oneForOne_leavesDependentsRunning() async throws {
            let harness = try EngineHarness([
                Self.quick(.testd("base")), Self.quick(.testd("top", dependsOn: ["base"])),
            ])
            try await harness.start()
            try await harness.waitFor("top", .ready)
            let top = try await Self.pid(harness, "top")
            kill(Int32(try await Self.pid(harness, "base")), SIGKILL)
            try await harness.waitFor("base", .ready, count: 2)
            #expect(try await Self.pid(harness, "top") == top)
            #expect(harness.events(of: "top").filter { $0.state == .stopping }.isEmpty)
            await harness.shutdown()
        }

        @Test func restForOne_stopsDependentsInReverse_thenStartsThemAfterItInOrder() async throws {
            let harness = try EngineHarness([
                Self.quick(.testd("root"), .restForOne), Self.quick(.testd("middle", dependsOn: ["root"])),
                Self.quick(.testd("leaf", dependsOn: ["middle"])), Self.quick(.testd("aside")),
            ])
            try await Self.startReady(harness, ["root", "middle", "leaf", "aside"])
            let aside = try await Self.pid(harness, "aside")
            let middle = try await Self.pid(harness, "middle")
            let i = try await Self.killAndAwaitRestart(harness, "root", until: "leaf")
            // Down: leaf, then middle (each gone before the next is asked); root starts after both.
            #expect(try i("leaf", .stopping, 1) < i("leaf", .stopped, 1))
            #expect(try i("leaf", .stopped, 1) < i("middle", .stopping, 1))
            #expect(try i("middle", .stopped, 1) < i("root", .starting, 2))
            // Up: root, middle, leaf, each once the one before is ready.
            #expect(try i("root", .ready, 2) < i("middle", .starting, 2))
            #expect(try i("middle", .ready, 2) < i("leaf", .starting, 2))
            #expect(try await Self.pid(harness, "middle") != middle)
            #expect(try await Self.pid(harness, "aside") == aside)
            let status = try await harness.status("middle")
            #expect(
                status.restarts == 1 && status.exitReason == .stop
                    && status.lastExit.contains("restart with root (rest_for_one)"), "\(status)")
            await harness.shutdown()
        }

        @Test func oneForAll_restartsTheWholeGroupInStartOrder_andNothingElse() async throws {
            let harness = try EngineHarness([
                Self.quick(.testd("first"), .oneForAll, group: "g"),
                Self.quick(.testd("second"), .oneForAll, group: "g"),
                Self.quick(.testd("third"), .oneForAll, group: "g"), Self.quick(.testd("outside")),
            ])
            try await Self.startReady(harness, ["first", "second", "third", "outside"])
            let outside = try await Self.pid(harness, "outside")
            let i = try await Self.killAndAwaitRestart(harness, "second", until: "third")
            #expect(try i("third", .stopped, 1) < i("first", .stopping, 1))
            #expect(try i("first", .stopped, 1) < i("second", .starting, 2))
            #expect(try i("first", .ready, 2) < i("second", .starting, 2))
            #expect(try i("second", .ready, 2) < i("third", .starting, 2))
            #expect(try await Self.pid(harness, "outside") == outside)
            await harness.shutdown()
        }
    }
}
