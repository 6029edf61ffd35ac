import Glibc
import Synchronization
import VerticalsClient
import VerticalsContract
import VerticalsObservability
import VerticalsServiceKit
import VerticalsWire

/// Measures what one input costs the daemon that serves it, from outside and with nothing the
/// daemon does not serve anyway (``InputCost``):
///
/// - the loop hold: `daemon.health` probes sent back to back on a connection of their own (a
///   client on a loop of its own) while the input is served; the longest, less the quickest
///   probe of the idle daemon. A probe takes a turn of every loop of the daemon, so a loop held
///   anywhere delays it;
/// - the live heap: `daemon.metrics`' `verticals_heap_in_use_bytes` (malloc's bytes in use, not
///   the resident size, which counts the free memory the allocator keeps for long frames) before
///   the request and after its answer;
/// - the answer's size: the body that came back;
/// - descriptors: the entries of `/proc/PID/fd` before and after (as root, or as the suite's owner).
final class CostProbe {
    let suite: LiveSuite
    /// Sends the inputs.
    let client: ServiceClient
    /// Sends the health probes, on a loop of its own.
    let prober: ServiceClient
    let control: ServiceClient
    /// Each vertical's quickest health probe while idle.
    private var idle: [String: Duration] = [:]
    /// Each service's pid, from the supervisor's table.
    private var pids: [String: Int] = [:]

    init(suite: LiveSuite, client: ServiceClient, prober: ServiceClient, control: ServiceClient) {
        self.suite = suite
        self.client = client
        self.prober = prober
        self.control = control
    }

    /// Reads the supervisor's table again (after a restart, the pids change).
    func refreshPids() async {
        for service in await suite.status(control) ?? [] {
            pids[service.name] = service.pid
        }
    }

    /// The quickest of a few health probes of `vertical`, measured once.
    private func idleProbe(_ vertical: String) async -> Duration {
        if let known = idle[vertical] { return known }
        var quickest = Duration.seconds(1)
        for _ in 0..<5 { quickest = min(quickest, await probe(vertical)) }
        idle[vertical] = quickest
        return quickest
    }

    /// One `daemon.health` round trip to `vertical`.
    private func probe(_ vertical: String) async -> Duration {
        let start = ContinuousClock.now
        _ = try? await prober.callRaw(
            service: vertical, operation: Daemon.health.fullName, body: Self.emptyBody, timeout: .seconds(10))
        return ContinuousClock.now - start
    }

    private static let emptyBody = Empty().encodedBody()

    /// `vertical`'s live heap in bytes, less what its bounded caches hold (a store's page cache:
    /// `BoundedCacheMemory`), or nil when it does not say.
    func liveHeap(_ vertical: String) async -> Int? {
        guard
            let body = try? await client.callRaw(
                service: vertical, operation: Daemon.metrics.fullName, body: Self.emptyBody, timeout: .seconds(10)),
            let metrics = try? Daemon.Metrics(decoding: body)
        else { return nil }
        func gauge(_ label: String) -> Int? {
            let prefix = label + " "
            for line in metrics.exposition.split(separator: "\n") where line.hasPrefix(prefix) {
                return Double(line.dropFirst(prefix.count)).map { Int($0) }
            }
            return nil
        }
        return gauge(HostMetrics.heapInUseLabel).map { $0 - (gauge(BoundedCacheMemory.label) ?? 0) }
    }

    /// The descriptors `vertical`'s process holds open, or nil when they cannot be read.
    func descriptors(_ vertical: String) -> Int? {
        guard let pid = pids[vertical], let folder = opendir("/proc/\(pid)/fd") else { return nil }
        defer { closedir(folder) }
        var count = 0
        while let entry = readdir(folder) {
            if entry.pointee.d_name.0 != UInt8(ascii: ".") { count += 1 }
        }
        return count
    }

    /// Each of `vertical`'s loop threads (named for the vertical, or for it and an index: the
    /// kernel keeps 15 bytes of a name), by thread id: nanoseconds it ran on a processor and
    /// waited for one, from `/proc/PID/task/TID/schedstat`; nil when they cannot be read (another
    /// user's process, a kernel without scheduler statistics).
    func loopThreadTimes(_ vertical: String) -> [Int: (ran: Int64, waited: Int64)]? {
        guard let pid = pids[vertical], let folder = opendir("/proc/\(pid)/task") else { return nil }
        defer { closedir(folder) }
        let names = Set(
            ([vertical] + (1..<64).map { "\(vertical)-\($0)" }).map {
                String(decoding: $0.utf8.prefix(15), as: UTF8.self)
            })
        var times: [Int: (ran: Int64, waited: Int64)] = [:]
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let thread = Int(name) else { continue }
            let task = "/proc/\(pid)/task/\(thread)"
            guard let comm = WholeFile.read("\(task)/comm")?.split(separator: "\n").first.map(String.init),
                names.contains(comm),
                let figures = WholeFile.read("\(task)/schedstat")?.split(separator: " "), figures.count >= 2,
                let ran = Int64(figures[0]), let waited = Int64(figures[1])
            else { continue }
            times[thread] = (ran, waited)
        }
        return times.isEmpty ? nil : times
    }

    /// The length of an answer the client refused for passing its frame limit (the daemon broke
    /// framing), or nil for any other error.
    static func oversizedFrame(_ error: ServiceError) -> Int? {
        guard error.code == .protocolError, let range = error.message.firstRange(of: "frame length ") else {
            return nil
        }
        return Int(error.message[range.upperBound...].prefix { $0.isNumber })
    }

    /// Sends `request` and measures what it cost; the answer's body or error comes back too.
    func measure(_ request: FuzzRequest) async -> (cost: InputCost, answer: Result<[UInt8], ServiceError>) {
        let vertical = request.target.vertical
        let idle = await idleProbe(vertical)
        let heapBefore = await liveHeap(vertical)
        let descriptorsBefore = descriptors(vertical)
        let loopsBefore = loopThreadTimes(vertical)
        let done = Atomic<Bool>(false)
        let client = self.client
        let (operation, body) = (request.target.operation.fullName, request.body)
        async let answer: Result<[UInt8], ServiceError> = {
            defer { done.store(true, ordering: .releasing) }
            do throws(ServiceError) {
                return .success(
                    try await client.callRaw(service: vertical, operation: operation, body: body, timeout: .seconds(60))
                )
            } catch {
                return .failure(error)
            }
        }()
        var longest = Duration.zero
        repeat {
            longest = max(longest, await probe(vertical))
        } while !done.load(ordering: .acquiring)
        let result = await answer
        let loopsAfter = loopThreadTimes(vertical)
        var cost = InputCost()
        cost.loopHold = max(.zero, longest - idle)
        if let loopsBefore, let loopsAfter {
            // The loop thread that ran the most in between, and what it waited.
            let busiest = loopsAfter.compactMap { thread, after in
                loopsBefore[thread].map { before in (ran: after.ran - before.ran, waited: after.waited - before.waited)
                }
            }.max { $0.ran < $1.ran }
            if let busiest {
                cost.loopRan = .nanoseconds(busiest.ran)
                cost.loopWaited = .nanoseconds(busiest.waited)
            }
        }
        switch result {
        case .success(let bytes): cost.answerBytes = bytes.count
        case .failure(let error):
            cost.outcome = error.code.wireName
            cost.answerBytes = Self.oversizedFrame(error) ?? error.message.utf8.count
        }
        if let before = heapBefore, let after = await liveHeap(vertical) { cost.heapGrowth = after - before }
        if let before = descriptorsBefore, let after = descriptors(vertical) { cost.descriptorGrowth = after - before }
        return (cost, result)
    }
}
