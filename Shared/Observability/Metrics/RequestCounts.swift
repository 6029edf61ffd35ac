import VerticalsWire

/// Requests, errors and latency per operation, added up over a host's loops, and their part of
/// the `daemon.metrics` exposition: `verticals_requests_total`, `verticals_request_errors_total`
/// (by `code`, only codes that occurred) and the histogram `verticals_request_duration_seconds`,
/// each by `operation` (PROTOCOL.md).
package struct RequestCounts: Sendable, Equatable {
    /// One operation's counts.
    package struct Totals: Sendable, Equatable {
        package var requests: UInt64 = 0
        package var errors: [ErrorCode: UInt64] = [:]
        package var latency = LatencyHistogram()
        package var heldLoop: UInt64 = 0

        package mutating func add(_ other: Totals) {
            requests &+= other.requests
            errors.merge(other.errors, uniquingKeysWith: &+)
            latency.add(other.latency)
            heldLoop &+= other.heldLoop
        }
    }

    /// The `operation` label of requests for an operation the host does not route.
    package static let unroutedName = "(unrouted)"

    /// By operation name.
    package var operations: [String: Totals] = [:]

    /// No operation counted yet.
    package init() {}

    /// Adds another loop's counts to these.
    package mutating func add(_ other: RequestCounts) {
        for (name, totals) in other.operations { operations[name, default: Totals()].add(totals) }
    }

    /// The families in the Prometheus text format (0.0.4), operations in name order.
    package var exposition: String {
        let names = operations.keys.sorted()
        var text = "# TYPE verticals_requests_total counter\n"
        for name in names {
            text += "verticals_requests_total{operation=\"\(Self.escaped(name))\"} \(operations[name]!.requests)\n"
        }
        let failing = names.filter { !operations[$0]!.errors.isEmpty }
        if !failing.isEmpty {
            text += "# TYPE verticals_request_errors_total counter\n"
            for name in failing {
                for (code, count) in operations[name]!.errors.sorted(by: { $0.key.wireName < $1.key.wireName }) {
                    text +=
                        "verticals_request_errors_total{operation=\"\(Self.escaped(name))\","
                        + "code=\"\(Self.escaped(code.wireName))\"} \(count)\n"
                }
            }
        }
        let holding = names.filter { operations[$0]!.heldLoop > 0 }
        if !holding.isEmpty {
            text += "# TYPE verticals_sync_handler_held_loop_total counter\n"
            for name in holding {
                text +=
                    "verticals_sync_handler_held_loop_total{operation=\"\(Self.escaped(name))\"} \(operations[name]!.heldLoop)\n"
            }
        }
        text += "# TYPE verticals_request_duration_seconds histogram\n"
        for name in names {
            let latency = operations[name]!.latency
            let label = "operation=\"\(Self.escaped(name))\""
            for (bound, count) in zip(LatencyHistogram.bounds, latency.cumulative) {
                let le = LatencyHistogram.seconds(nanoseconds: UInt64(bound))
                text += "verticals_request_duration_seconds_bucket{\(label),le=\"\(le)\"} \(count)\n"
            }
            text += "verticals_request_duration_seconds_bucket{\(label),le=\"+Inf\"} \(latency.count)\n"
            text +=
                "verticals_request_duration_seconds_sum{\(label)} "
                + "\(LatencyHistogram.seconds(nanoseconds: latency.sumNanoseconds))\n"
            text += "verticals_request_duration_seconds_count{\(label)} \(latency.count)\n"
        }
        return text
    }

    /// `value` escaped for a label (backslash, double quote and newline), as the format requires.
    package static func escaped(_ value: String) -> String {
        guard value.contains(where: { $0 == "\\" || $0 == "\"" || $0 == "\n" }) else { return value }
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
