import Foundation

/// Section `allocations`: the allocations a request makes in steady state, counted by malloc
/// interposition in the release build of `vt-alloc-count` (Tests/Support/vt-alloc-count), each
/// end in its own process: the server with an `onSync` echo (target 0) and with an async one
/// (target ≤ 1, the task), and the typed client's `ServiceClient.call` (target 0 for its pending
/// record; the row counts the whole call). The echo's Input and Output hold one integer, so
/// every allocation is the framework's. Counts repeat from run to run, so it runs twice at most.
struct AllocationsBenchmark {
    let settings: BenchSettings
    let report: Report
    /// Requests counted in each life, after a warm-up of a tenth as many.
    var requests = 10_000

    /// The rows, in the program's output order: its line's name, the row's, and the target.
    static let rows: [(key: String, name: String, target: Double)] = [
        ("server.onSync", "server, handler that answers at once (onSync)", 0),
        ("server.async", "server, async handler", 1),
        ("client", "typed client, ServiceClient.call (target: its pending record)", 0),
    ]

    func run() {
        let program = "\(settings.binDirectory)/vt-alloc-count"
        guard FileManager.default.isExecutableFile(atPath: program) else {
            fail("\(program) is missing: run `make bench`, which builds it")
        }
        var figures: [String: [Double]] = [:]
        for round in 1...min(settings.rounds, 2) {
            progress("allocations, round \(round)")
            for line in Subprocess.run(program, ["\(requests)"]).split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard fields.count == 2, let value = Double(fields[1]) else { continue }
                figures[String(fields[0]), default: []].append(value)
            }
        }
        for row in Self.rows {
            guard let values = figures[row.key] else { fail("vt-alloc-count printed no \(row.key) line") }
            report.add(
                "allocations", row.name, unit: "alloc/req", Summary(values), target: .atMost(row.target, "alloc/req"))
        }
    }
}
