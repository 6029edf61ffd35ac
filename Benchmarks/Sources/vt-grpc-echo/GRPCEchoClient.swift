import BenchWindow
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import Synchronization

/// The clients that time the gRPC echo, each as its own process, answering as the C client does.
enum GRPCEchoClient {
    /// One call in flight; after COUNT/10 warm-up calls, writes COUNT round-trip times
    /// (nanoseconds, native uint64) to `output`.
    static func latency(path: String, setup: GRPCEchoSettings.Setup, size: Int, count: Int, output: String) async {
        let samples = await withClients(path: path, setup: setup, count: 1) { clients in
            let client = clients[0]
            let payload = [UInt8](repeating: 0x5A, count: size)
            var samples: [UInt64] = []
            samples.reserveCapacity(count)
            let warmup = count / 10
            for index in 0..<(warmup + count) {
                let start = ContinuousClock.now
                let answered = try await call(client, payload)
                let elapsed = (ContinuousClock.now - start).components
                guard answered == size else { stop("the echo answered \(answered) bytes for \(size)") }
                if index >= warmup {
                    samples.append(
                        UInt64(elapsed.seconds) * 1_000_000_000 + UInt64(elapsed.attoseconds / 1_000_000_000))
                }
            }
            return samples
        }
        let data = samples.withUnsafeBytes { Data($0) }
        guard FileManager.default.createFile(atPath: output, contents: data) else { stop("cannot write \(output)") }
    }

    /// CONNECTIONS clients (one HTTP/2 connection each) with DEPTH calls in flight on each; after
    /// 0.25 s of warm-up counts answers for SECONDS and prints `requests=N seconds=S`, with the
    /// CPU both ends spent while counting when the environment names the server (``WindowCPU``).
    static func throughput(
        path: String, setup: GRPCEchoSettings.Setup, size: Int, connections: Int, depth: Int, seconds: Double
    ) async {
        let window = CountingWindow()
        let line = await withClients(path: path, setup: setup, count: connections) { clients in
            let payload = [UInt8](repeating: 0x5A, count: size)
            return try await withThrowingTaskGroup(of: Void.self) { group in
                for client in clients {
                    for _ in 0..<depth {
                        group.addTask {
                            while window.phase.load(ordering: .relaxed) != CountingWindow.over {
                                _ = try await call(client, payload)
                                if window.phase.load(ordering: .relaxed) == CountingWindow.counting {
                                    window.answered.add(1, ordering: .relaxed)
                                }
                            }
                        }
                    }
                }
                try await Task.sleep(for: .milliseconds(250))
                let cpu = WindowCPU.open()
                window.phase.store(CountingWindow.counting, ordering: .relaxed)
                let start = ContinuousClock.now
                try await Task.sleep(for: .seconds(seconds))
                let counted = window.answered.load(ordering: .relaxed)
                window.phase.store(CountingWindow.over, ordering: .relaxed)
                let elapsed = ContinuousClock.now - start
                let spent = cpu?.close() ?? ""
                try await group.waitForAll()
                let elapsedSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                return "requests=\(counted) seconds=\(elapsedSeconds)\(spent)"
            }
        }
        print(line)
    }

    /// One unary echo call; returns the answer's length.
    private static func call(_ client: GRPCClient<HTTP2ClientTransport.Posix>, _ payload: [UInt8]) async throws -> Int {
        try await client.unary(
            request: ClientRequest(message: payload), descriptor: GRPCEchoSettings.method,
            serializer: PassThroughCoding(), deserializer: PassThroughCoding(), options: .defaults
        ) { response in
            try response.message.count
        }
    }

    /// Runs `body` with `count` connected clients of the server on `path`, on `setup`'s event
    /// loop group and task executor, then shuts them down; a failure stops the program.
    private static func withClients<Value: Sendable>(
        path: String, setup: GRPCEchoSettings.Setup, count: Int,
        _ body: @escaping @Sendable ([GRPCClient<HTTP2ClientTransport.Posix>]) async throws -> Value
    ) async -> Value {
        let group = GRPCEchoSettings.eventLoopGroup(setup)
        do {
            let clients = try (0..<count).map { _ in
                GRPCClient(
                    transport: try HTTP2ClientTransport.Posix(
                        target: .unixDomainSocket(path: path), transportSecurity: .plaintext,
                        config: GRPCEchoSettings.client(setup), eventLoopGroup: group))
            }
            return try await withTaskExecutorPreference(GRPCEchoSettings.taskExecutor(setup)) {
                try await withThrowingTaskGroup(of: Value?.self) { tasks in
                    for client in clients {
                        tasks.addTask {
                            try await client.runConnections()
                            return nil
                        }
                    }
                    tasks.addTask {
                        let value = try await body(clients)
                        for client in clients { client.beginGracefulShutdown() }
                        return value
                    }
                    var result: Value?
                    for try await value in tasks where value != nil { result = value }
                    guard let result else { stop("the clients ended without an answer") }
                    return result
                }
            }
        } catch {
            stop("calls to \(path) failed: \(error)")
        }
    }
}

/// The throughput client's window: its phase (warming up, counting, over), shared by every
/// caller task, and the answers counted while it is open.
final class CountingWindow: Sendable {
    static let warmingUp = 0
    static let counting = 1
    static let over = 2
    let phase = Atomic<Int>(CountingWindow.warmingUp)
    let answered = Atomic<Int>(0)
}
