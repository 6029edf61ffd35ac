import VerticalsContract
import VerticalsSupervisorClient

/// A trace's spans as a waterfall, one line per span in start order, children under their
/// parent: service, operation (indented by depth), start offset from the trace's first span,
/// duration, code, and a bar placing the span in the trace's time. Names, codes and services are
/// what the daemons said, shown through ``VisibleText`` before they are measured and padded.
///
/// ```text
/// offset ms  duration ms  code  service        operation
///     0.000       4.210   ok    appointments   appointments.book          ██████████████████████
///     0.310       0.402   ok    identity         identity.authenticate     ██
/// ```
package enum TraceWaterfall {
    /// The waterfall of `spans` (any order; duplicates by span id kept once).
    package static func text(_ spans: [Daemon.SpanInfo], width: Int = 30) -> [TerminalText] {
        var seen = Set<String>()
        let unique = spans.filter { seen.insert($0.spanID).inserted }
        guard let first = unique.map(\.startMicroseconds).min() else { return ["no spans"] }
        let end = unique.map { $0.startMicroseconds + $0.durationMicroseconds }.max() ?? first
        let total = max(1, end - first)
        let ids = Set(unique.map(\.spanID))
        let children = Dictionary(grouping: unique) { $0.parentSpanID }
        var lines: [String] = []
        func visit(_ span: Daemon.SpanInfo, depth: Int) {
            let offset = span.startMicroseconds - first
            let from = offset * width / total
            let length = max(1, span.durationMicroseconds * width / total)
            let bar = String(repeating: " ", count: from) + String(repeating: "█", count: min(length, width - from + 1))
            let name =
                String(repeating: "  ", count: depth) + VisibleText.of(span.name)
                + (span.kind == "client" ? " (call)" : "")
            let timing =
                pad(milliseconds(offset), 10, right: true) + "  "
                + pad(milliseconds(span.durationMicroseconds), 11, right: true)
            let what =
                pad(VisibleText.of(span.code), 18) + "  " + pad(VisibleText.of(span.service), 14) + "  " + pad(name, 40)
            lines.append(timing + "  " + what + "  " + bar)
            for child in (children[span.spanID] ?? []).sorted(by: { $0.startMicroseconds < $1.startMicroseconds }) {
                visit(child, depth: depth + 1)
            }
        }
        // Roots: spans whose parent is not among those gathered (the trace's root, or one whose
        // parent's daemon did not answer or dropped it from its ring).
        for root in unique.filter({ !ids.contains($0.parentSpanID) }).sorted(by: {
            $0.startMicroseconds < $1.startMicroseconds
        }) {
            visit(root, depth: 0)
        }
        let header =
            pad("offset ms", 10, right: true) + "  " + pad("duration ms", 11, right: true) + "  "
            + pad("code", 18) + "  " + pad("service", 14) + "  " + pad("operation", 40)
        return ([header] + lines).map { "\($0)" }
    }

    /// The slowest requests, slowest first: duration, code, service, operation, trace id.
    package static func slowest(_ spans: [Daemon.SpanInfo], count: Int) -> [TerminalText] {
        let sorted = spans.sorted { $0.durationMicroseconds > $1.durationMicroseconds }.prefix(count)
        let header =
            pad("duration ms", 11, right: true) + "  " + pad("code", 18) + "  " + pad("service", 14) + "  "
            + pad("operation", 32) + "  trace"
        var lines = [header]
        for span in sorted {
            let timing = pad(milliseconds(span.durationMicroseconds), 11, right: true)
            let what =
                pad(VisibleText.of(span.code), 18) + "  " + pad(VisibleText.of(span.service), 14) + "  "
                + pad(VisibleText.of(span.name), 32)
            lines.append(timing + "  " + what + "  " + VisibleText.of(span.traceID))
        }
        return lines.map { "\($0)" }
    }

    /// Microseconds as milliseconds with three decimals.
    static func milliseconds(_ micros: Int) -> String {
        let fraction = String(abs(micros) % 1000)
        return "\(micros / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
