import Testing
import VerticalsWire

@testable import VerticalsObservability

/// The per-loop request counts behind `daemon.metrics`: the histogram's buckets and sums, the
/// adding up of loops, and the exposition text they render.
struct RequestCountsTests {
    @Test func histogram_putsAValueOnABoundInThatBucket_andOneAboveInTheNext() {
        var histogram = LatencyHistogram()
        histogram.record(nanoseconds: 100_000) // exactly 100 µs: le="0.0001"
        histogram.record(nanoseconds: 100_001) // just over: le="0.00025"
        histogram.record(nanoseconds: -5) // a clock read out of order counts as 0
        histogram.record(nanoseconds: 60_000_000_000) // above every bound: +Inf only
        #expect(histogram.count == 4)
        #expect(histogram.sumNanoseconds == 60_000_200_001)
        let cumulative = histogram.cumulative
        #expect(cumulative.count == LatencyHistogram.bounds.count)
        #expect(cumulative[0] == 2)
        #expect(cumulative[1] == 3)
        #expect(cumulative.last == 3)
    }

    @Test func seconds_areExactDecimals_withoutTrailingZeros() {
        #expect(LatencyHistogram.seconds(nanoseconds: 100_000) == "0.0001")
        #expect(LatencyHistogram.seconds(nanoseconds: 250_000) == "0.00025")
        #expect(LatencyHistogram.seconds(nanoseconds: 2_500_000_000) == "2.5")
        #expect(LatencyHistogram.seconds(nanoseconds: 10_000_000_000) == "10")
        #expect(LatencyHistogram.seconds(nanoseconds: 1) == "0.000000001")
        #expect(LatencyHistogram.seconds(nanoseconds: 0) == "0")
    }

    @Test func loops_addUp_operationByOperation() {
        let first = LoopCounts(operationNames: ["echo.echo", "echo.fail"])
        let second = LoopCounts(operationNames: ["echo.echo", "echo.fail"])
        first.operation("echo.echo").requested()
        first.operation("echo.echo").took(nanoseconds: 50_000)
        second.operation("echo.echo").requested()
        second.operation("echo.echo").took(nanoseconds: 3_000_000)
        second.operation("echo.fail").requested()
        second.operation("echo.fail").failed(.notFound)
        first.operation("nope.nope").requested() // not routed: counted apart
        var total = first.snapshot()
        total.add(second.snapshot())
        #expect(total.operations["echo.echo"]?.requests == 2)
        #expect(total.operations["echo.echo"]?.latency.count == 2)
        #expect(total.operations["echo.echo"]?.latency.sumNanoseconds == 3_050_000)
        #expect(total.operations["echo.fail"]?.errors == [.notFound: 1])
        #expect(total.operations[RequestCounts.unroutedName]?.requests == 1)
        #expect(total.operations["nope.nope"] == nil)
    }

    @Test func exposition_rendersEachFamilyWhole_errorsOnlyWhereSome() {
        let loop = LoopCounts(operationNames: ["b.op", "a.op"])
        loop.operation("a.op").requested()
        loop.operation("a.op").took(nanoseconds: 300_000)
        loop.operation("a.op").failed(.conflict)
        let text = loop.snapshot().exposition
        let lines = text.split(separator: "\n").map(String.init)
        #expect(text.hasSuffix("\n"))
        #expect(
            lines.filter { $0.hasPrefix("# TYPE") } == [
                "# TYPE verticals_requests_total counter", "# TYPE verticals_request_errors_total counter",
                "# TYPE verticals_request_duration_seconds histogram",
            ])
        #expect(lines.contains("verticals_requests_total{operation=\"a.op\"} 1"))
        #expect(lines.contains("verticals_requests_total{operation=\"b.op\"} 0"))
        #expect(lines.contains("verticals_request_errors_total{operation=\"a.op\",code=\"conflict\"} 1"))
        #expect(!lines.contains { $0.hasPrefix("verticals_request_errors_total{operation=\"b.op\"") })
        #expect(lines.contains("verticals_request_duration_seconds_bucket{operation=\"a.op\",le=\"0.00025\"} 0"))
        #expect(lines.contains("verticals_request_duration_seconds_bucket{operation=\"a.op\",le=\"0.0005\"} 1"))
        #expect(lines.contains("verticals_request_duration_seconds_bucket{operation=\"a.op\",le=\"+Inf\"} 1"))
        #expect(lines.contains("verticals_request_duration_seconds_sum{operation=\"a.op\"} 0.0003"))
        #expect(lines.contains("verticals_request_duration_seconds_count{operation=\"a.op\"} 1"))
        // Operations in name order: a.op's samples before b.op's in every family.
        let firstA = lines.firstIndex { $0.contains("operation=\"a.op\"") }!
        let firstB = lines.firstIndex { $0.contains("operation=\"b.op\"") }!
        #expect(firstA < firstB)
    }

    @Test func labelValues_areEscaped() {
        #expect(RequestCounts.escaped("plain.op") == "plain.op")
        #expect(RequestCounts.escaped("a\"b\\c\nd") == "a\\\"b\\\\c\\nd")
    }
}
