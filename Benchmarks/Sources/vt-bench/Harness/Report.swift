import Foundation
import Synchronization

/// A target a ratio must meet, e.g. `≥ 20×`, or a figure itself, e.g. `≤ 4 MiB`.
struct Target: Codable, Sendable {
    /// True for "at least", false for "at most".
    var atLeast: Bool
    /// The bound.
    var bound: Double
    /// The figure's unit when the bound is on the figure itself, not on a ratio.
    var unit: String? = nil

    static func atLeast(_ bound: Double) -> Target { Target(atLeast: true, bound: bound) }
    static func atMost(_ bound: Double) -> Target { Target(atLeast: false, bound: bound) }
    /// A bound on the figure itself, in `unit`.
    static func atMost(_ bound: Double, _ unit: String) -> Target { Target(atLeast: false, bound: bound, unit: unit) }

    /// Whether the median `ratio` (or figure) meets it.
    func holds(_ ratio: Double) -> Bool { atLeast ? ratio >= bound : ratio <= bound }

    var text: String { "\(atLeast ? "≥" : "≤") \(Format.number(bound))\(unit.map { " \($0)" } ?? "×")" }
}

/// One line of the table: a figure of ours, and where there is one, the baseline measured in
/// the same rounds and the ratio between them (round by round, then summarised).
struct ResultRow: Codable, Sendable {
    var section: String
    var name: String
    var unit: String
    var value: Summary
    var baselineName: String?
    var baseline: Summary?
    /// What the ratio means, e.g. "ours / JSON" (higher is better) or "ours / C" (lower is better).
    var ratioName: String?
    var ratio: Summary?
    var target: Target?
    var holds: Bool?
}

/// How a figure grows with the work: one value (a summary over the rounds) at each point, and
/// the growth named from the slope of log(figure) over log(work) across the upper points.
struct Curve: Codable, Sendable {
    var name: String
    /// What the work is, e.g. "requests in flight on one connection".
    var work: String
    var unit: String
    var points: [Double]
    var values: [Summary]
    /// "constant", "linear", "square root", "falling", or "as work^k".
    var growth: String

    init(name: String, work: String, unit: String, points: [Double], values: [Summary]) {
        self.name = name
        self.work = work
        self.unit = unit
        self.points = points
        self.values = values
        growth = Self.growth(points: points, medians: values.map(\.median))
    }

    /// The exponent k of figure ∝ work^k between the middle point and the last (the first and the
    /// last of two, as a curve cut short by a limit may have), named.
    static func growth(points: [Double], medians: [Double]) -> String {
        guard points.count >= 2 else { return "one point" }
        let from = min(points.count / 2, points.count - 2)
        let to = points.count - 1
        // Nothing at either end (an idle process's wake-ups): no slope, and nothing grew.
        if medians[from] == 0, medians[to] == 0 { return "constant (0)" }
        guard points[from] > 0, points[to] > points[from], medians[from] > 0, medians[to] > 0 else { return "—" }
        let k = log(medians[to] / medians[from]) / log(points[to] / points[from])
        switch k {
        case ..<(-0.15): return "falling (work^\(Format.number(k)))"
        case ..<0.15: return "constant"
        case 0.35..<0.65: return "square root"
        case 0.85..<1.15: return "linear"
        default: return "as work^\(Format.number(k))"
        }
    }
}

/// Everything a run measured: the table, the latency distributions for the plot, and the settings.
final class Report: Sendable {
    private struct State {
        var rows: [ResultRow] = []
        var distributions: [String: [[Double]]] = [:]
        var curves: [Curve] = []
        var notes: [String] = []
    }
    private let state = Mutex(State())

    var rows: [ResultRow] { state.withLock { $0.rows } }

    /// Adds a figure without a baseline.
    func add(_ section: String, _ name: String, unit: String, _ value: Summary) {
        let row = ResultRow(section: section, name: name, unit: unit, value: value)
        state.withLock { $0.rows.append(row) }
    }

    /// Adds a figure held to a bound on itself (``Target/atMost(_:_:)``).
    func add(_ section: String, _ name: String, unit: String, _ value: Summary, target: Target) {
        let row = ResultRow(
            section: section, name: name, unit: unit, value: value, target: target, holds: target.holds(value.median))
        state.withLock { $0.rows.append(row) }
    }

    /// Adds the rows of a process's memory over the rounds: private dirty (what is judged, held
    /// to `target` in MiB where given) and PSS, then RSS and resident text as information.
    func addMemory(_ section: String, _ name: String, _ readings: [ProcessStats.Memory], target: Double? = nil) {
        let privateDirty = Summary(readings.map { $0.privateDirty / 1024 })
        if let target {
            add(section, "\(name): private dirty", unit: "MiB", privateDirty, target: .atMost(target, "MiB"))
        } else {
            add(section, "\(name): private dirty", unit: "MiB", privateDirty)
        }
        add(section, "  PSS", unit: "MiB", Summary(readings.map { $0.pss / 1024 }))
        add(
            section, "  RSS (information: counts clean, shared file pages)", unit: "MiB",
            Summary(readings.map { $0.rss / 1024 }))
        add(section, "  resident text (information)", unit: "MiB", Summary(readings.map { $0.residentText / 1024 }))
    }

    /// Adds a figure with its baseline; `ratio` is ours ÷ baseline round by round unless `inverted`
    /// (baseline ÷ ours, for "within N× of the ceiling"). With `failed`, the row misses its target
    /// whatever the ratio, and a note says why (the run broke a condition of the row).
    func add(
        _ section: String, _ name: String, unit: String, ours: [Double], baselineName: String, baseline: [Double],
        ratioName: String, inverted: Bool = false, target: Target? = nil, failed: String? = nil
    ) {
        let ratio = inverted ? Summary.ratio(baseline, over: ours) : Summary.ratio(ours, over: baseline)
        let row = ResultRow(
            section: section, name: name, unit: unit, value: Summary(ours), baselineName: baselineName,
            baseline: Summary(baseline), ratioName: ratioName, ratio: ratio, target: target,
            holds: target.map { failed == nil && $0.holds(ratio.median) })
        state.withLock { $0.rows.append(row) }
        if let failed { note("\(section) \(name.trimmingCharacters(in: .whitespaces)): missed because \(failed)") }
    }

    /// A latency distribution for the plot: (percentile, microseconds) points.
    func addDistribution(_ name: String, _ points: [[Double]]) {
        state.withLock { $0.distributions[name] = points }
    }

    /// A curve for the plot; its growth is a note, and with `rows` each of its points a row of the table.
    func addCurve(_ section: String, _ curve: Curve, rows: Bool = true) {
        // Points are counts (requests in flight, services): whole numbers print as such.
        func point(_ value: Double) -> String { value == value.rounded() ? "\(Int(value))" : Format.number(value) }
        for (at, value) in zip(curve.points, curve.values) where rows {
            add(section, "\(curve.name), \(point(at)) \(curve.work)", unit: curve.unit, value)
        }
        state.withLock { $0.curves.append(curve) }
        let points = curve.points.map(point).joined(separator: ", ")
        note("\(section) \(curve.name) over \(curve.work) (\(points)): \(curve.growth)")
    }

    /// A line printed under the table and kept in the JSON.
    func note(_ text: String) {
        state.withLock { $0.notes.append(text) }
    }

    /// The table, as printed at the end of a run.
    func table() -> String {
        let (rows, notes) = state.withLock { ($0.rows, $0.notes) }
        var lines: [[String]] = [["section", "measure", "ours (median [min–max])", "baseline", "ratio", "target"]]
        for row in rows {
            let ours = "\(Format.summary(row.value)) \(row.unit)"
            let baseline = row.baseline.map { "\(row.baselineName ?? ""): \(Format.summary($0))" } ?? ""
            let ratio = row.ratio.map { "\(Format.summary($0))× \(row.ratioName ?? "")" } ?? ""
            let target = row.target.map { "\($0.text) \(row.holds == true ? "holds" : "MISSED")" } ?? ""
            lines.append([row.section, row.name, ours, baseline, ratio, target])
        }
        let widths = (0..<6).map { column in lines.map { $0[column].count }.max() ?? 0 }
        var out = lines.map { line in
            zip(line, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
        }
        out.insert(String(repeating: "─", count: widths.reduce(0, +) + 10), at: 1)
        return (out + notes.map { "note: \($0)" }).joined(separator: "\n")
    }

    /// results.json: the settings, rows, distributions, curves and notes.
    func write(to path: String, settings: BenchSettings, startedAt: Date) throws {
        let (rows, distributions, curves, notes) = state.withLock {
            ($0.rows, $0.distributions, $0.curves, $0.notes)
        }
        struct Document: Encodable {
            var startedAt: String
            var host: String
            var rounds: Int
            var idleSeconds: Int
            var rows: [ResultRow]
            var distributions: [String: [[Double]]]
            var curves: [Curve]
            var notes: [String]
        }
        let document = Document(
            startedAt: ISO8601DateFormatter().string(from: startedAt), host: ProcessInfo.processInfo.hostName,
            rounds: settings.rounds, idleSeconds: settings.idleSeconds, rows: rows, distributions: distributions,
            curves: curves, notes: notes)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(document).write(to: URL(fileURLWithPath: path))
    }
}

/// Number formatting for the table: three significant digits, thousands spelled out.
enum Format {
    static func number(_ value: Double) -> String {
        let magnitude = abs(value)
        if magnitude >= 1_000_000 { return String(format: "%.2fM", value / 1_000_000) }
        if magnitude >= 10_000 { return String(format: "%.0fk", value / 1_000) }
        if magnitude >= 100 { return String(format: "%.0f", value) }
        if magnitude >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }

    static func summary(_ summary: Summary) -> String {
        "\(number(summary.median)) [\(number(summary.min))–\(number(summary.max))]"
    }
}
