/// A request-latency histogram in the Prometheus sense (cumulative `le` buckets, a sum and a
/// count), kept in whole nanoseconds by one writer with no lock.
///
/// Each loop of a host keeps its own (``OperationCounts``), and `daemon.metrics` adds them up
/// when asked (``RequestCounts``). Recording is a short scan of integer bounds and three
/// additions. The shared, locked `Duration` histogram it replaces cost about 860 instructions a
/// request (a mutex, `Duration` comparisons in 128-bit arithmetic) and made every loop of a
/// daemon write the same cache lines.
package struct LatencyHistogram: Sendable, Equatable {
    /// The buckets' upper bounds in nanoseconds, ascending: requests here take tens of
    /// microseconds to a few milliseconds, so finer than the web-sized default.
    package static let bounds: [Int64] = [
        100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000, 10_000_000, 25_000_000, 50_000_000,
        100_000_000, 250_000_000, 500_000_000, 1_000_000_000, 2_500_000_000, 5_000_000_000, 10_000_000_000,
    ]

    /// Observations that fell in each bucket alone (not cumulative: the rendering adds them
    /// up); one more than ``bounds``, the last for those above every bound.
    @usableFromInline var buckets = [UInt64](repeating: 0, count: LatencyHistogram.bounds.count + 1)
    /// Observations recorded.
    @usableFromInline var count: UInt64 = 0
    /// Their sum, in nanoseconds.
    @usableFromInline var sumNanoseconds: UInt64 = 0

    /// Records one observation of `nanoseconds` (a negative one, from a clock read out of
    /// order, counts as zero).
    @inlinable package mutating func record(nanoseconds: Int64) {
        let value = max(0, nanoseconds)
        var index = 0
        let bounds = Self.bounds
        while index < bounds.count, value > bounds[index] { index += 1 }
        buckets[index] &+= 1
        count &+= 1
        sumNanoseconds &+= UInt64(value)
    }

    /// Adds `other`'s observations to these (another loop's, when rendering).
    package mutating func add(_ other: LatencyHistogram) {
        for index in buckets.indices { buckets[index] &+= other.buckets[index] }
        count &+= other.count
        sumNanoseconds &+= other.sumNanoseconds
    }

    /// The cumulative count at each bound, in order (the `le` samples, `+Inf` excluded).
    package var cumulative: [UInt64] {
        var running: UInt64 = 0
        return Self.bounds.indices.map { index in
            running &+= buckets[index]
            return running
        }
    }

    /// `nanoseconds` as seconds in decimal, without trailing zeros (`0.0001`, `2.5`, `10`), for
    /// an `le` label or a `_sum` sample: exact, where a `Double` would print `0.00025000000000000005`.
    package static func seconds(nanoseconds: UInt64) -> String {
        let whole = nanoseconds / 1_000_000_000
        var fraction = nanoseconds % 1_000_000_000
        guard fraction > 0 else { return "\(whole)" }
        var digits = 9
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let text = String(fraction)
        return "\(whole)." + String(repeating: "0", count: digits - text.count) + text
    }
}
