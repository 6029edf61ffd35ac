/// What serving one input cost the daemon that served it, as ``CostProbe`` measures it from
/// outside: the longest its loops were held, the live heap it left, the answer's size and the
/// descriptors it left open.
struct InputCost: Sendable {
    /// The costs the search maximises, each with its own corpus.
    enum Kind: String, CaseIterable, Sendable {
        case loopHold = "loop"
        case heap
        case answer
        case descriptors = "fds"
    }

    /// How much longer than when idle a `daemon.health` probe on the same daemon waited while the
    /// input was served (the probe takes a turn of every loop: a held loop delays it).
    var loopHold: Duration = .zero
    /// What the busiest of the daemon's loop threads spent on a processor while the input was
    /// served (its probes' turns included), and what it spent waiting for one, from
    /// `/proc/PID/task/TID/schedstat`; nil when they cannot be read. A hold the loop spent waiting
    /// is what other processes cost it, not what the input did.
    var loopRan: Duration?
    var loopWaited: Duration?
    /// The live heap after the answer minus before the request (`verticals_heap_in_use_bytes`).
    var heapGrowth = 0
    /// The answer's body in bytes (an error's too).
    var answerBytes = 0
    /// Open descriptors after the answer minus before the request (`/proc/PID/fd`).
    var descriptorGrowth = 0
    /// `ok` for an Output, else the error's code.
    var outcome = "ok"

    /// The figure for `kind`, in microseconds for the loop hold and units otherwise: what the
    /// search compares.
    func value(_ kind: Kind) -> Int64 {
        switch kind {
        case .loopHold: loopHold.microseconds
        case .heap: Int64(heapGrowth)
        case .answer: Int64(answerBytes)
        case .descriptors: Int64(descriptorGrowth)
        }
    }

    /// `kind`'s figure for a report: `1.2 ms`, `+12 KiB`, `4.0 KiB`, `+1`.
    func text(_ kind: Kind) -> String {
        switch kind {
        case .loopHold: String(format1: Double(loopHold.microseconds) / 1_000) + " ms"
        case .heap: (heapGrowth < 0 ? "-" : "+") + Self.bytes(abs(heapGrowth))
        case .answer: Self.bytes(answerBytes)
        case .descriptors: (descriptorGrowth < 0 ? "" : "+") + "\(descriptorGrowth)"
        }
    }

    /// The loop thread's time on a processor and waiting for one, for a report:
    /// `its loop ran 1.2 ms, waited 8.0 ms` (empty when unknown).
    var loopTimes: String {
        guard let loopRan, let loopWaited else { return "" }
        return "its loop ran " + String(format1: Double(loopRan.microseconds) / 1_000) + " ms, waited "
            + String(format1: Double(loopWaited.microseconds) / 1_000) + " ms"
    }

    /// `bytes` as B, KiB or MiB.
    static func bytes(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        if bytes < 1 << 20 { return String(format1: Double(bytes) / 1024) + " KiB" }
        return String(format1: Double(bytes) / Double(1 << 20)) + " MiB"
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }

    /// The duration in whole microseconds.
    var microseconds: Int64 {
        components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000
    }
}
