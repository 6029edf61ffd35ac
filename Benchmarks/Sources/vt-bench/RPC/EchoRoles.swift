import BenchWindow
import Foundation
import IOInterface
import Synchronization
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsWire

/// The Swift side of the RPC section, each run as its own process by the driver (so client and
/// server can be pinned apart): the echo vertical, and the typed clients that measure it.
enum EchoRoles {
    /// `vt-bench echo-server`: serves ``BenchEcho`` on `$VERTICALS_SOCKET_DIR/bench.sock` with
    /// the full stack (ServiceRuntime, ServiceHost, Router, async handler) until SIGTERM; with
    /// `VT_BENCH_ECHO_HANDLER=sync`, its handler is one that answers at once (`Router.onSync`).
    /// Returns the daemon's exit status, as a vertical's `main.swift` gets it from ``DaemonMain``.
    static func server() -> Int32 {
        let sync = ProcessInfo.processInfo.environment["VT_BENCH_ECHO_HANDLER"] == "sync"
        // No arguments: this process was started as `vt-bench echo-server`, which are the bench's, not a daemon's.
        return DaemonMain.run(name: BenchEcho.name, arguments: []) { _ in
            var router = Router(service: BenchEcho.self)
            if sync {
                router.onSync(BenchEcho.echo) { input, _ in input }
            } else {
                router.on(BenchEcho.echo) { input, _ in input }
            }
            return ServedVertical(router)
        }
    }

    /// `vt-bench echo-latency DIR SIZE COUNT OUT`: one call in flight through the typed client,
    /// on the client's loop; after COUNT/10 warm-up calls, writes COUNT round-trip times
    /// (nanoseconds, native uint64, as the C client does) to OUT.
    ///
    /// Synchronous: the main thread waits for the loop's task on a semaphore. An `async` role would
    /// leave top-level code through `dispatch_main`, whose parked main thread valgrind 3.19 crashes
    /// on, and the `instructions` section counts this client under callgrind.
    static func latency(socketDirectory: String, size: Int, count: Int, output: String) {
        let (loop, client) = makeClient(socketDirectory)
        let input = BenchEcho.Blob(size: size)
        let samples = waitFor(loop) { () -> [UInt64] in
            var samples: [UInt64] = []
            samples.reserveCapacity(count)
            let warmup = count / 10
            for index in 0..<(warmup + count) {
                let start = monotonicNanoseconds()
                do {
                    let answer = try await client.call(BenchEcho.echo, input)
                    precondition(answer.payload.count == size, "the echo answered \(answer.payload.count) bytes")
                } catch {
                    fail("echo call failed: \(error)")
                }
                let elapsed = monotonicNanoseconds() - start
                if index >= warmup { samples.append(elapsed) }
            }
            return samples
        }
        let data = samples.withUnsafeBytes { Data($0) }
        guard FileManager.default.createFile(atPath: output, contents: data) else { fail("cannot write \(output)") }
        client.close()
        loop.shutdown()
    }

    /// `vt-bench echo-throughput DIR SIZE CONNECTIONS DEPTH SECONDS`: CONNECTIONS typed clients
    /// (one connection each) with DEPTH calls in flight on each; after 0.25 s of warm-up counts
    /// answers for SECONDS and prints `requests=N seconds=S`, as the C client does, with the CPU
    /// both ends spent while counting when the environment names the server (``WindowCPU``).
    /// With `timed`, each call's round trip is kept while counting, and the line adds `p50=µs p99=µs`.
    static func throughput(
        socketDirectory: String, size: Int, connections: Int, depth: Int, seconds: Double, timed: Bool = false
    ) async {
        let loop = makeLoop()
        let clients = (0..<connections).map { _ in
            ServiceClient(loop: loop, sockets: peers(socketDirectory), contracts: contracts())
        }
        let input = BenchEcho.Blob(size: size)
        let state = ThroughputState()
        await withTaskGroup(of: [UInt64].self) { group in
            for client in clients {
                for _ in 0..<depth {
                    group.addTask(executorPreference: loop) {
                        var roundTrips: [UInt64] = []
                        while !state.stopped.load(ordering: .relaxed) {
                            let began = timed ? monotonicNanoseconds() : 0
                            do {
                                _ = try await client.call(BenchEcho.echo, input)
                            } catch {
                                fail("echo call failed: \(error)")
                            }
                            if state.counting.load(ordering: .relaxed) {
                                state.answered.add(1, ordering: .relaxed)
                                if timed { roundTrips.append(monotonicNanoseconds() - began) }
                            }
                        }
                        return roundTrips
                    }
                }
            }
            try? await Task.sleep(for: .milliseconds(250))
            let cpu = WindowCPU.open()
            state.counting.store(true, ordering: .relaxed)
            let start = ContinuousClock.now
            try? await Task.sleep(for: .seconds(seconds))
            let answered = state.answered.load(ordering: .relaxed)
            let elapsed = ContinuousClock.now - start
            state.stopped.store(true, ordering: .relaxed)
            let spent = cpu?.close() ?? ""
            let roundTrips = await group.reduce(into: [UInt64]()) { $0 += $1 }.sorted()
            let percentiles =
                roundTrips.isEmpty
                ? ""
                : " p50=\(Double(roundTrips[roundTrips.count / 2]) / 1000)"
                    + " p99=\(Double(roundTrips[roundTrips.count * 99 / 100]) / 1000)"
            print("requests=\(answered) seconds=\(elapsed.seconds)\(timed ? percentiles : "")\(spent)")
        }
        for client in clients { client.close() }
        loop.shutdown()
    }

    /// `vt-bench connect-cost ENDPOINT COUNT`: COUNT new connections one after the other, each
    /// closed once open (with the mutual-TLS handshake when `VERTICALS_TLS_*` name files); prints
    /// `micros=M`, the median microseconds from connect to usable connection.
    static func connectCost(endpoint text: String, count: Int) async {
        guard let endpoint = try? SocketEndpoint(parsing: text) else { fail("not an endpoint: \(text)") }
        let loop = makeLoop()
        let security = TransportSecurity.from(environment: ProcessEnvironment.current)
        let context: TLSContext?
        do {
            context = try security.files.map { try TLSContext(files: $0, role: .client) }
        } catch {
            fail("cannot load the TLS files: \(error)")
        }
        var samples: [UInt64] = []
        for _ in 0..<count {
            let start = monotonicNanoseconds()
            let opened: Bool = await withCheckedContinuation { continuation in
                loop.execute {
                    let done: (Result<Connection, EventLoopError>) -> Void = { result in
                        if case .success(let connection) = result { connection.close() }
                        continuation.resume(returning: (try? result.get()) != nil)
                    }
                    if let context {
                        Connection.connect(to: endpoint, on: loop, tls: context, peerName: nil, done)
                    } else {
                        Connection.connect(to: endpoint, on: loop, done)
                    }
                }
            }
            guard opened else { fail("a connection to \(text) failed") }
            samples.append(monotonicNanoseconds() - start)
        }
        samples.sort()
        print("micros=\(Double(samples[samples.count / 2]) / 1000)")
        loop.shutdown()
    }

    /// `vt-bench first-call DIR COUNT`: COUNT clients one after the other, each opening its
    /// connection with its first call and closing it; prints `micros=M`, the median microseconds
    /// from the call to its answer (the connect, and the contract check when the client asks).
    static func firstCall(socketDirectory: String, count: Int) {
        let loop = makeLoop()
        let input = BenchEcho.Blob(size: 64)
        let samples = waitFor(loop) { () -> [UInt64] in
            var samples: [UInt64] = []
            for _ in 0..<count {
                let client = ServiceClient(loop: loop, sockets: peers(socketDirectory), contracts: contracts())
                let start = monotonicNanoseconds()
                do {
                    _ = try await client.call(BenchEcho.echo, input)
                } catch {
                    fail("echo call failed: \(error)")
                }
                samples.append(monotonicNanoseconds() - start)
                client.close()
            }
            return samples.sorted()
        }
        print("micros=\(Double(samples[samples.count / 2]) / 1000)")
        loop.shutdown()
    }

    /// With `VT_BENCH_CONTRACTS=on`, what a vertical's client declares: `bench.echo`, checked at
    /// each new connection (`daemon.contractCheck`); else nothing, and no check.
    private static func contracts() -> CalleeContracts? {
        guard ProcessEnvironment.current["VT_BENCH_CONTRACTS"] == "on" else { return nil }
        return CalleeContracts(caller: "bench-client", callees: Callees(BenchEcho.echo))
    }

    private static func makeClient(_ socketDirectory: String) -> (EventLoop, ServiceClient) {
        let loop = makeLoop()
        return (loop, ServiceClient(loop: loop, sockets: peers(socketDirectory), contracts: contracts()))
    }

    /// The echo in `socketDirectory`, unless `VERTICALS_ENDPOINT_BENCH` names it (the `tcp` section).
    private static func peers(_ socketDirectory: String) -> SocketDirectory {
        var environment = ProcessEnvironment.current
        environment["VERTICALS_SOCKET_DIR"] = socketDirectory
        return SocketDirectory.from(environment: environment)
    }
}

/// A client event loop, or the run stops with the reason.
func makeLoop(_ name: String = "bench-client") -> EventLoop {
    do {
        return try EventLoop(name: name)
    } catch {
        fail("cannot start an event loop: \(error)")
    }
}

/// The value of `work`, run as a task on `loop`, with the calling thread blocked until it ends:
/// for a role's synchronous `main`, which must not wait in `dispatch_main` (see
/// ``EchoRoles/latency(socketDirectory:size:count:output:)``).
func waitFor<Value: Sendable>(_ loop: EventLoop, _ work: @escaping @Sendable () async -> Value) -> Value {
    let result = Mutex<Value?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task(executorPreference: loop) {
        let value = await work()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}

/// The throughput client's shared counters, touched from its loop's tasks and its timer task.
final class ThroughputState: Sendable {
    let stopped = Atomic<Bool>(false)
    let counting = Atomic<Bool>(false)
    let answered = Atomic<Int>(0)
}

/// CLOCK_MONOTONIC in nanoseconds: the clock libuv's `uv_hrtime` reads, so both clients agree.
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
