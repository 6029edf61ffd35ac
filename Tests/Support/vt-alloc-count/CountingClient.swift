import CAllocCount
import Glibc
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsWire

/// One measurement: a ``CountingServer`` started as a child of this process, and this process as
/// its typed client. Each process counts its own allocations, every thread of it: the server's
/// loop, the tasks its handlers run as and anything the runtime does beside them, apart from the
/// client's, which a count in one process could not tell apart from the server's without
/// guessing which thread did what.
struct CountingClient {
    /// Allocations a request, in steady state, at each end.
    struct PerRequest {
        var server: Double
        var client: Double
    }

    /// Why a measurement could not be made.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `sync` or `async`: the server's echo handler.
    let handler: String
    let requests: Int
    let warmUp: Int

    /// Starts the server in a folder of its own, makes `warmUp` requests, then `requests` counted
    /// ones, and stops the server.
    func measure() async throws -> PerRequest {
        let sockets = try Self.temporaryFolder()
        defer { rmdir(sockets) }
        let server = try startServer(sockets: sockets)
        defer { Self.stop(server, socket: "\(sockets)/\(AllocEcho.name).sock") }
        let loop = try EventLoop(name: "alloc-client")
        defer { loop.shutdown() }
        var environment = ProcessEnvironment.current
        environment[DaemonSettings.socketDir.name] = sockets
        let client = ServiceClient(loop: loop, sockets: .from(environment: environment))
        defer { client.close() }
        let requests = self.requests
        let warmUp = self.warmUp
        let samples = AllocationTrace.samples
        let trace = AllocationTrace.open("client-\(handler)")
        return try await Task(executorPreference: loop) { () async throws -> PerRequest in
            try await Self.waitUntilServing(client)
            for value in 0..<warmUp { try await Self.echo(value, client) }
            // Reading the server's count costs it a request's allocations too: two reads in a row
            // measure that cost, taken once from the count that brackets the echoes.
            let none = AllocEcho.Number(value: 0)
            let first = try await client.call(AllocEcho.allocations, none).value
            let before = try await client.call(AllocEcho.allocations, .init(value: samples)).value
            AllocationTrace.start(trace, samples: samples)
            vt_alloc_count_arm()
            let clientBefore = vt_alloc_count_allocations()
            for value in 0..<requests { try await Self.echo(value, client) }
            let clientAfter = vt_alloc_count_allocations()
            vt_alloc_count_disarm()
            let after = try await client.call(AllocEcho.allocations, none).value
            let server = (after - before) - (before - first)
            return PerRequest(
                server: Double(server) / Double(requests),
                client: Double(clientAfter - clientBefore) / Double(requests))
        }.value
    }

    private static func echo(_ value: Int, _ client: ServiceClient) async throws {
        let answer = try await client.call(AllocEcho.echo, AllocEcho.Number(value: value))
        guard answer.value == value else { throw Failure(description: "the echo answered \(answer.value) to \(value)") }
    }

    /// Calls until the server answers, for at most 30 s: it listens once its runtime has started.
    private static func waitUntilServing(_ client: ServiceClient) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            do {
                _ = try await client.call(AllocEcho.allocations, AllocEcho.Number(value: 0))
                return
            } catch {
                guard ContinuousClock.now < deadline else {
                    throw Failure(description: "the counting server did not answer within 30 s: \(error)")
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// This program again, as `serve HANDLER PARENT`, with its sockets in `sockets`.
    private func startServer(sockets: String) throws -> pid_t {
        var environment = ProcessEnvironment.current
        environment[DaemonSettings.socketDir.name] = sockets
        environment[DaemonSettings.logLevel.name] = "warning"
        // A request a busy machine held past the default 10 ms is logged, which allocates: a
        // warning is not a request's cost, and must not make the count depend on the machine.
        environment[DaemonSettings.syncWarnMilliseconds.name] = "60000"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let started = ChildProcess.posixSpawn(
            "/proc/self/exe", ["serve", handler, "\(getpid())"], environment: environment, actions: &actions)
        guard started.status == 0 else {
            throw Failure(description: "cannot start the counting server: \(String(cString: strerror(started.status)))")
        }
        return started.pid
    }

    /// SIGTERM, then waits for the exit, and removes the socket it may leave.
    private static func stop(_ pid: pid_t, socket: String) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        unlink(socket)
    }

    private static func temporaryFolder() throws -> String {
        var template = Array("/tmp/vt-alloc.XXXXXX".utf8CString)
        guard let folder = mkdtemp(&template) else {
            throw Failure(description: "cannot make a folder in /tmp: \(String(cString: strerror(errno)))")
        }
        return String(cString: folder)
    }
}
