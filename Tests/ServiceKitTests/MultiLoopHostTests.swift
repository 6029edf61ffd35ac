import Glibc
import Synchronization
import VerticalsClient
import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsObservability
@testable import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// A host on several event loops (`VERTICALS_LOOPS`): each connection lives on one
/// loop, its handlers run there, and the connection limit, drain, idle exit and metrics stay
/// exact across loops. In-process, so the handler can say which thread it runs on.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct MultiLoopHostTests {
    static let echo = TestEcho()

    /// A host of `echo` on `loops` loops (the accepting one named `echo-0`, the others
    /// `echo-1`, …), whose echo answers with its thread's name before and after a suspension
    /// (`before/after`), and waits at ``gate`` when asked for a delay of 1 ms (2 ms: blocks its
    /// loop's thread there, as a wedged handler would).
    final class Served {
        let hosted: HostedRouter
        let gate: Gate
        var host: ServiceHost { hosted.host }

        init(loops: Int, configure: (inout HostConfiguration) -> Void = { _ in }) async throws {
            let gate = Gate()
            self.gate = gate
            var router = Router(service: "echo")
            router.on(MultiLoopHostTests.echo.echo) { input, _ in
                let before = MultiLoopHostTests.threadName()
                switch input.delayMilliseconds {
                case 1: await gate.pass()
                case 2: gate.blockThisThread()
                default: await Task.yield()
                }
                return .init(text: "\(before)/\(MultiLoopHostTests.threadName())", servedBy: 0)
            }
            hosted = try await HostedRouter(router, loopName: "echo-0", loops: loops, configure: configure)
        }

        /// A new client: its own connection, made by its first call.
        func client() -> ServiceClient { hosted.newClient() }

        func close() async { await hosted.close() }
    }

    /// Handlers wait here until ``open()``; ``passing`` counts those that arrived.
    final class Gate: Sendable {
        private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))
        let passing = Atomic<Int>(0)

        func pass() async {
            passing.add(1, ordering: .relaxed)
            await withCheckedContinuation { continuation in
                let open = state.withLock { state in
                    if !state.open { state.waiting.append(continuation) }
                    return state.open
                }
                if open { continuation.resume() }
            }
        }

        /// Holds the calling thread (a loop's, from a handler) until ``open()``.
        func blockThisThread() {
            passing.add(1, ordering: .relaxed)
            while !state.withLock({ $0.open }) { usleep(1_000) }
        }

        func open() {
            let waiting = state.withLock { state in
                state.open = true
                defer { state.waiting = [] }
                return state.waiting
            }
            for continuation in waiting { continuation.resume() }
        }
    }

    static func threadName() -> String {
        let fd = open("/proc/thread-self/comm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "?" }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = read(fd, &bytes, bytes.count)
        return String(decoding: bytes.prefix(max(0, count)), as: UTF8.self).trimmingSuffix("\n")
    }

    @Test func fourConnectionsOnTwoLoops_eachServedOnItsOwnLoopForLife() async throws {
        let served = try await Served(loops: 2)
        var threads: [String] = []
        for _ in 0..<4 {
            let client = served.client()
            var answers: Set<String> = []
            for index in 0..<3 {
                answers.insert(try await client.call(Self.echo.echo, .init(text: "\(index)")).text)
            }
            // One thread for every call of a connection, before and after the handler suspends.
            #expect(answers.count == 1, "\(answers)")
            let parts = try #require(answers.first).split(separator: "/").map(String.init)
            #expect(parts.count == 2 && parts[0] == parts[1], "\(parts)")
            threads.append(parts[0])
        }
        // The fewest-connections pick alternates: two on each loop.
        #expect(threads.sorted() == ["echo-0", "echo-0", "echo-1", "echo-1"], "\(threads)")
        await served.close()
    }

    @Test func oneLoop_servesEveryConnectionOnTheHostsLoop() async throws {
        let served = try await Served(loops: 1)
        for _ in 0..<3 {
            #expect(try await served.client().call(Self.echo.echo, .init(text: "x")).text == "echo-0/echo-0")
        }
        await served.close()
    }

    @Test func connectionLimit_isExactAcrossLoops() async throws {
        let served = try await Served(loops: 2) { $0.limits.maxConnections = 3 }
        var admitted: [ServiceClient] = []
        for _ in 0..<3 {
            let client = served.client()
            _ = try await client.call(Self.echo.echo, .init(text: "in"))
            admitted.append(client)
        }
        var refusal: ServiceError?
        do {
            _ = try await served.client().call(Self.echo.echo, .init(text: "one too many"))
        } catch {
            refusal = error
        }
        #expect(refusal?.code == .resourceExhausted, "\(String(describing: refusal))")
        // A closed connection frees its place, whichever loop it was on.
        admitted[0].close()
        let again = served.client()
        #expect(await eventuallyAsync { (try? await again.call(Self.echo.echo, .init(text: "back"))) != nil })
        await served.close()
    }

    @Test func stop_waitsForTheRequestsOfEveryLoop() async throws {
        let served = try await Served(loops: 2)
        let (first, second) = (served.client(), served.client())
        // Their first calls place them: one connection on each loop.
        let loops = [
            try await first.call(Self.echo.echo, .init(text: "a")).text,
            try await second.call(Self.echo.echo, .init(text: "b")).text,
        ]
        #expect(Set(loops) == ["echo-0/echo-0", "echo-1/echo-1"], "\(loops)")
        async let firstAnswer = first.call(Self.echo.echo, .init(text: "held", delayMilliseconds: 1))
        async let secondAnswer = second.call(Self.echo.echo, .init(text: "held", delayMilliseconds: 1))
        #expect(await eventuallyAsync { served.gate.passing.load(ordering: .relaxed) == 2 })
        let stopped = Atomic<Bool>(false)
        let host = served.host
        let stopping = Task {
            await host.stop()
            stopped.store(true, ordering: .relaxed)
        }
        // Both loops drain. (A request arriving now on either connection is left unread, and its
        // client sends it again on a new connection: the hand-over of PROTOCOL.md §11.)
        let hosts = [host] + (try await host.loop.submit { host.shards })
        for each in hosts {
            #expect(await eventuallyAsync { (try? await each.loop.submit { each.isDraining }) == true })
        }
        let stoppedEarly = stopped.load(ordering: .relaxed)
        #expect(!stoppedEarly, "stop returned with requests in flight")
        served.gate.open()
        // Answered, not cut: the drain of each loop waited for its request.
        #expect(try await firstAnswer.text.hasPrefix("echo-"))
        #expect(try await secondAnswer.text.hasPrefix("echo-"))
        await stopping.value
        let stoppedAtLast = stopped.load(ordering: .relaxed)
        #expect(stoppedAtLast)
        await served.close()
    }

    @Test func health_isNotAnswered_whileAnyLoopIsWedged() async throws {
        let served = try await Served(loops: 2)
        let (first, second) = (served.client(), served.client())
        _ = try await first.call(Self.echo.echo, .init(text: "a"))
        _ = try await second.call(Self.echo.echo, .init(text: "b"))
        // The first connection's loop thread is held in a handler; the second's loop is free.
        async let wedged = first.call(Self.echo.echo, .init(text: "wedge", delayMilliseconds: 2))
        #expect(await eventuallyAsync { served.gate.passing.load(ordering: .relaxed) == 1 })
        var failure: ServiceError?
        do {
            _ = try await second.callRaw(
                service: "echo", operation: Daemon.health.fullName, body: [], timeout: .milliseconds(300))
        } catch {
            failure = error
        }
        #expect(failure?.code == .deadlineExceeded, "\(String(describing: failure))")
        served.gate.open()
        _ = try await wedged
        _ = try await second.callRaw(service: "echo", operation: Daemon.health.fullName, body: [])
        await served.close()
    }

    @Test func metrics_countTheRequestsAndConnectionsOfEveryLoop() async throws {
        let served = try await Served(loops: 2)
        var clients: [ServiceClient] = []
        for _ in 0..<4 {
            let client = served.client()
            for _ in 0..<5 { _ = try await client.call(Self.echo.echo, .init(text: "m")) }
            clients.append(client)
        }
        let body = try await clients[1].callRaw(service: "echo", operation: Daemon.metrics.fullName, body: [])
        let metrics = try Daemon.Metrics(decoding: body).exposition
        let lines = metrics.split(separator: "\n")
        #expect(lines.contains("verticals_requests_total{operation=\"echo.echo\"} 20"))
        #expect(lines.contains("verticals_connections_open 4.0"))
        // The metrics request itself, summed over both loops' connections.
        #expect(lines.contains("verticals_requests_in_flight 1.0"))
        #expect(lines.contains("verticals_connections_accepted_total 4"))
        await served.close()
    }

    @Test func traces_ofEveryLoop_areRecordedInTheLoopsOwnLane_andReadTogether() async throws {
        let served = try await Served(loops: 2) { $0.tracing = TraceSampling(ratio: 0) }
        for _ in 0..<4 {
            let client = served.client()
            for _ in 0..<5 { _ = try await client.call(Self.echo.echo, .init(text: "t")) }
        }
        let traces = try #require(served.host.traces)
        // Two connections on each loop, five calls each: each loop's ten spans in its own lane.
        let lanes = traces.ring.lanes.map { $0.records(ownService: "echo").filter { $0.name == "echo.echo" }.count }
        #expect(lanes == [10, 10], "\(lanes)")
        let all = traces.ring.all().filter { $0.name == "echo.echo" }
        #expect(all.count == 20)
        let ends = all.map { $0.startNanoseconds + $0.durationNanoseconds }
        #expect(ends == ends.sorted())
        await served.close()
    }

    @Test func idleExit_waitsUntilNoLoopHasARequest() async throws {
        // Three seconds, not one: in the full parallel bundle on two loaded cores, five hosts in a
        // row went idle before the two calls that place the connections were answered.
        let idle = Duration.seconds(3)
        // The host may exit for being idle before both connections are placed and a request is
        // held on the second loop, if this test is held up past `idle` on a loaded machine (seen
        // in the parallel bundle, also between the placement and the held request): then the
        // whole setup is made again on a new host, and only what follows a request that reached
        // the second loop is judged.
        var attempt = 0
        var setup: (Served, Task<String, any Error>)?
        while setup == nil, attempt < 8 {
            attempt += 1
            let served = try await Served(loops: 2) {
                $0.idleExit = idle
                $0.idleExitMinimumUptime = .zero
            }
            let (first, second) = (served.client(), served.client())
            if let a = try? await first.call(Self.echo.echo, .init(text: "a")).text,
                let b = try? await second.call(Self.echo.echo, .init(text: "b")).text
            {
                #expect(Set([a, b]) == ["echo-0/echo-0", "echo-1/echo-1"], "\([a, b])")
                let onSecondLoop = a == "echo-1/echo-1" ? first : second
                // A request held on the second loop keeps the host up for several idle periods. Its
                // deadline is far past anything this test waits for: with the client's default, a
                // loaded machine's slow setup plus the three idle periods once outlasted it (CI
                // saw deadlineExceeded here).
                let held = Task {
                    try await onSecondLoop.call(
                        Self.echo.echo, .init(text: "held", delayMilliseconds: 1), timeout: .seconds(100)
                    ).text
                }
                // A held call that failed (the host had gone) never reaches the gate: 10 s, then again.
                if await eventuallyAsync(timeout: .seconds(10), { served.gate.passing.load(ordering: .relaxed) == 1 }) {
                    setup = (served, held)
                    continue
                }
                held.cancel()
                _ = try? await held.value
            }
            await served.close()
        }
        let (served, held) = try #require(setup, "no request held on the second loop before an idle exit in 8 attempts")
        try await Task.sleep(for: idle * 3)
        let host = served.host
        #expect(try await !host.loop.submit { host.stopMachine.hasDrained }, "exited while a loop served a request")
        served.gate.open()
        #expect(try await held.value == "echo-1/echo-1")
        // Idle everywhere now: it exits, the idle period after the request ended.
        #expect(await eventuallyAsync { (try? await host.loop.submit { host.stopMachine.hasDrained }) == true })
        await served.close()
    }
}

/// `VERTICALS_LOOPS` and the default count.
struct LoopCountTests {
    @Test(arguments: ["0", "-1", "two", "", "1.5", "257"])
    func aValueThatIsNotANumberOfLoops_isAProblemThatSaysSo(text: String) {
        let result = LoopCount.from(environment: [LoopCount.variable: text])
        #expect(result == .failure(LoopCountError(text: text)))
        let configuration = HostConfiguration.from(environment: [LoopCount.variable: text], name: "echo", pid: 1)
        #expect(configuration.loopsProblem?.description.contains("VERTICALS_LOOPS=\"\(text)\"") == true)
    }

    @Test func aNumber_isTheCount_andNone_isTheUsableCores() {
        #expect(LoopCount.from(environment: [LoopCount.variable: "3"]) == .success(3))
        #expect(LoopCount.from(environment: [:]) == .success(LoopCount.usableCores()))
        #expect(LoopCount.usableCores() >= 1 && LoopCount.usableCores() <= EventLoop.availableParallelism)
        #expect(HostConfiguration(name: "x", socketDirectory: SocketDirectory("/tmp")).loops == 1)
    }

    @Test func cpuMax_roundsTheQuotaUp_andMaxMeansNoLimit() {
        #expect(LoopCount.quotaCores(cpuMax: "150000 100000\n") == 2)
        #expect(LoopCount.quotaCores(cpuMax: "100000 100000") == 1)
        #expect(LoopCount.quotaCores(cpuMax: "50000 100000") == 1)
        #expect(LoopCount.quotaCores(cpuMax: "max 100000") == nil)
        #expect(LoopCount.quotaCores(cpuMax: "") == nil)
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
