import Glibc
import Synchronization
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting

/// A supervision engine on its own loop and run directory, with every state change recorded.
/// Children are tagged `VT_TEST_TAG=<tag>`; ``shutdown()`` stops them and kills any left.
final class EngineHarness {
    let directory = TemporaryDirectory()
    let loop: EventLoop
    let engine: SupervisorEngine
    let tag = "engine-\(UInt32.random(in: 0...UInt32.max))"
    private let recorded = EventLog()

    var run: RunDirectory { RunDirectory(directory.path) }

    init(
        _ services: [ServiceSpec], runDirectory: String? = nil, tag: String? = nil,
        programDirectory: String = DaemonProcess.productsDirectory, serviceUsers: ServiceUsers? = nil,
        configure: (inout EngineConfiguration) -> Void = { _ in }
    ) throws {
        loop = try EventLoop(name: "engine-test")
        let tagValue = tag ?? self.tag
        var configuration = EngineConfiguration(
            runDirectory: RunDirectory(runDirectory ?? directory.path), execShim: EngineHarness.execShim,
            programDirectory: programDirectory,
            environment: [
                "PATH": "/usr/bin:/bin", "VT_TEST_TAG": tagValue, "VERTICALS_LOG_LEVEL": "warning",
                "VERTICALS_PASS_ENVIRONMENT": "VT_TEST_TAG VERTICALS_LOG_LEVEL",
            ])
        configuration.serviceUsers = serviceUsers
        configuration.storeReader = "\(DaemonProcess.productsDirectory)/svc-supervisor-engine"
        configure(&configuration)
        engine = SupervisorEngine(manifest: Manifest(services: services), configuration: configuration, loop: loop)
    }

    /// vt-exec beside the test bundle.
    static var execShim: String { "\(DaemonProcess.productsDirectory)/vt-exec" }

    /// Whether vt-exec takes `--setsid --pdeathsig SIG --` yet (the exec shim is built in parallel).
    static let shimTakesFlags: Bool = {
        let directory = TemporaryDirectory()
        guard
            let result = try? runCommand(
                execShim, ["--setsid", "--pdeathsig", "SIGTERM", "--", "/bin/sh", "-c", "exit 0"], in: directory)
        else { return false }
        return result.status == 0
    }()

    func start() async throws {
        try await engine.observe { [recorded] event in recorded.events.withLock { $0.append(event) } }
        try await engine.start()
    }

    var events: [SupervisorEngine.Event] { recorded.events.withLock { $0 } }

    func events(of service: String) -> [SupervisorEngine.Event] { events.filter { $0.service == service } }

    /// Waits until `service` has entered `state` `count` times; returns that event. The bound
    /// only ends a wait for what never comes: a chain of restarts (root, then middle, then leaf,
    /// each a process start) took longer than 15 s on a loaded 2-core machine.
    @discardableResult
    func waitFor(
        _ service: String, _ state: Supervisor.ServiceState, count: Int = 1, timeout: Duration = .seconds(60)
    ) async throws -> SupervisorEngine.Event {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let matching = events(of: service).filter { $0.state == state }
            if matching.count >= count { return matching[count - 1] }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw HarnessTimeout(
            "\(service) never became \(state) (\(count)×); events: \(events(of: service).map(\.description))")
    }

    /// Starts the engine, waits for `service` to be ready, kills its process (SIGKILL) and waits
    /// for the backoff that follows; returns the killed pid and the backoff's event.
    func startThenKill(_ service: String) async throws -> (pid: Int, backoff: SupervisorEngine.Event) {
        try await start()
        try await waitFor(service, .ready)
        let pid = try #require(try await status(service).pid)
        kill(Int32(pid), SIGKILL)
        return (pid, try await waitFor(service, .backoff))
    }

    /// The restart delays the engine chose for `service`, in order, as its log notes them
    /// ("…; restart 2 in 40 ms"): what it decided, which a loaded machine cannot change, unlike
    /// how late the loop got round to acting on it.
    func plannedDelays(of service: String) -> [String] {
        (readFile(run.log(for: service)) ?? "").split(separator: "\n").compactMap { line -> String? in
            guard let range = line.firstRange(of: "; restart ") else { return nil }
            let words = line[range.upperBound...].split(separator: " ", maxSplits: 2)
            guard words.count == 3, Int(words[0]) != nil, words[1] == "in" else { return nil }
            return String(words[2])
        }
    }

    func status(_ service: String) async throws -> Supervisor.ServiceStatus {
        try #require(try await engine.status().first { $0.name == service })
    }

    /// Stops everything, closes the engine and its loop, and kills whatever still carries the tag.
    func shutdown() async {
        await engine.stopAll()
        await engine.close()
        loop.shutdown()
        for pid in EngineHarness.processes(taggedWith: tag) { kill(pid, SIGKILL) }
    }

    /// When a test fails half-way: no stop in order, but nothing left running either.
    deinit {
        loop.shutdown()
        for pid in EngineHarness.processes(taggedWith: tag) { kill(pid, SIGKILL) }
    }

    /// Processes whose environment holds `<key>=<tag>`.
    static func processes(taggedWith tag: String, key: String = "VT_TEST_TAG") -> [Int32] {
        guard let proc = opendir("/proc") else { return [] }
        defer { closedir(proc) }
        var found: [Int32] = []
        let needle = Array("\(key)=\(tag)".utf8)
        while let entry = readdir(proc) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let pid = Int32(name), pid != getpid() else { continue }
            guard let environ = readFileBytes("/proc/\(pid)/environ") else { continue }
            if environ.split(separator: 0).contains(where: { Array($0) == needle }), isAlive(pid) { found.append(pid) }
        }
        return found
    }

    /// True unless `pid` is gone or a zombie.
    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = readFile("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }
}

/// The engine's events, appended on its loop thread and read by the test.
final class EventLog: Sendable {
    let events = Mutex<[SupervisorEngine.Event]>([])
}

struct HarnessTimeout: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension ServiceSpec {
    /// vt-testd serving as vertical `name` (its socket handed over by the engine).
    static func testd(_ name: String, dependsOn: [String] = []) -> ServiceSpec {
        var spec = ServiceSpec(name: name, executable: "vt-testd")
        spec.arguments = [name]
        spec.dependsOn = dependsOn
        spec.readyTimeout = .seconds(10)
        spec.stopTimeout = .seconds(5)
        return spec
    }

    /// A shell script service (`/bin/sh -c script`), without a socket.
    static func script(_ name: String, _ script: String, readiness: Readiness = .none) -> ServiceSpec {
        var spec = ServiceSpec(name: name, executable: "/bin/sh")
        spec.arguments = ["-c", script]
        spec.socket = false
        spec.readiness = readiness
        spec.stopTimeout = .seconds(2)
        return spec
    }
    /// This spec, restarted after `backoff` and, when given, within `budget`.
    func restarting(after backoff: Backoff, within budget: RestartBudget? = nil) -> ServiceSpec {
        var spec = self
        spec.backoff = backoff
        if let budget { spec.budget = budget }
        return spec
    }
}

extension Backoff {
    /// The same `delay` before every restart.
    static func every(_ delay: Duration) -> Backoff {
        Backoff(initial: delay, max: delay, multiplier: 1)
    }
}
