import Glibc
import VerticalsWire

/// One request that broke a rule: a daemon exited, the answer was `internal`, not a typed
/// error, not the operation's Output, or never came. Printed with what reproduces it: the run's
/// seed, the request's frame in hex (`make fuzz-live REPLAY=HEX`), and where JSON can carry
/// the Input, a `svc-supervisor call` line.
struct Finding {
    /// The request as sent.
    let request: FuzzRequest
    /// What went wrong.
    let symptom: String
    /// The run's seed.
    let seed: UInt64
    /// The request's number in the run (1 is the first).
    let number: Int
    /// Seconds since fuzzing started.
    let seconds: Double
    /// Whether the request was a replayed frame (no seed made it).
    let replayed: Bool
    /// `unix` or `tcp`, as `FUZZ_TRANSPORT` takes it.
    let transport: String
    /// The make target that replays it: `fuzz-live`, or `fuzz-cost` for a cost over budget.
    var command = "fuzz-live"

    /// The report, several lines; `hexFile` is where a frame too long for a command line was written.
    func report(hexFile: String?) -> String {
        let hex = request.replayText
        var lines = [
            "FINDING \(request.target.label): \(symptom)",
            "  request \(number) of seed \(seed), \(String(format1: seconds)) s into the run; "
                + "session: \(request.session.rawValue)",
            "  input: \(request.summary)",
        ]
        // The cost search's phases differ by more than the transport (one runs a hostile callee).
        let replayAs =
            (request.carriesToken ? " REPLAY_AS=\(request.session.rawValue)" : "")
            + (command == "fuzz-cost" ? " FUZZ_TRANSPORT=\(transport)" : "")
        if let hexFile {
            lines.append("  replay: make \(command) REPLAY=@\(hexFile)\(replayAs)   (frame of \(hex.count / 2) bytes)")
        } else {
            lines.append("  replay: make \(command) REPLAY=\(hex)\(replayAs)")
        }
        lines.append("  call: " + (request.callLine ?? "none (\(request.jsonProblem ?? "no JSON"))"))
        if !replayed { lines.append("  again: make \(command) FUZZ_SEED=\(seed) FUZZ_TRANSPORT=\(transport)") }
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// `value` with one decimal.
    init(format1 value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(abs(tenths % 10))"
    }
}
