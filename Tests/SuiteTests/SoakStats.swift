/// What `make soak` reports: bookings acknowledged, retries and errors by code, latency from
/// first attempt to acknowledgement, and each daemon's memory at the start and the end.
struct SoakStats {
    let residentAtStart: [String: Int]
    /// Bookings and notifications lost, extra or doubled, over every round.
    var discrepancies = 0
    private var acknowledged = 0
    private var failures = 0
    private var retries = 0
    private var errors: [String: Int] = [:]
    private var latencies: [Duration] = []

    init(residentAtStart: [String: Int]) {
        self.residentAtStart = residentAtStart
    }

    mutating func add(_ outcome: Booker.Outcome) {
        acknowledged += outcome.acknowledged.count
        failures += outcome.failures.count
        retries += outcome.retries
        latencies += outcome.latencies
        errors.merge(outcome.errors, uniquingKeysWith: +)
    }

    func report(rounds: Int, elapsed: Duration, residentAtEnd: [String: Int]) -> String {
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> String {
            sorted.isEmpty ? "-" : "\(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))])"
        }
        let memory = residentAtStart.keys.sorted().map { name in
            "\(name) \(residentAtStart[name]! >> 20) -> \((residentAtEnd[name] ?? 0) >> 20) MiB"
        }
        return """
            soak: \(rounds) rounds of kill -9 (appointments, identity, notifications, supervisor) in \(elapsed)
            soak: \(acknowledged) bookings acknowledged, \(failures) failed for good, \(retries) retried attempts
            soak: errors by code: \(errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            soak: booking latency (first attempt to acknowledgement) p50 \(percentile(0.5)), p99 \(percentile(0.99))
            soak: resident memory \(memory.joined(separator: ", "))
            soak: lost, extra or duplicated bookings and notifications: \(discrepancies)
            """
    }
}
