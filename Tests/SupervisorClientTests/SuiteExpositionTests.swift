import Testing
import VerticalsContract
import VerticalsSupervisorClient
import VerticalsSharedTesting

/// `svc-supervisor metrics`'s merge (``SuiteExposition``) against daemons that attack it: the
/// supervisor keeps its `service` label and its families, one daemon cannot blind the others,
/// and the text stays valid for a strict reader of the format (``StrictExposition``).
@Suite("SuiteExposition: what a daemon exposes cannot take the suite's metrics")
struct SuiteExpositionTests {
    static let services = ["honest", "evil1", "evil2", "broken", "quiet"].map { name in
        Supervisor.ServiceStatus(
            name: name, state: .ready, pid: 7, restarts: 0, lastExit: "", ready: true, statusText: "", receives: [])
    }

    static let honest = """
        # TYPE verticals_requests_total counter
        verticals_requests_total{operation="honest.get"} 3
        # TYPE shared_thing gauge
        shared_thing 1
        # TYPE queue_count gauge
        queue_count 4

        """

    /// Declares the supervisor's state family with another type, claims to be accounts, and
    /// gives another daemon's family with another type.
    static let evil1 = """
        # TYPE verticals_service_state counter
        verticals_service_state{service="accounts",state="ready"} 1
        # TYPE verticals_requests_total counter
        verticals_requests_total{service="accounts",operation="accounts.logIn"} 99
        verticals_requests_total{service="a",exported_service="b",operation="x"} 1
        # TYPE shared_thing counter
        shared_thing 5

        """

    /// A reserved label, a series twice, a histogram whose buckets fall, a control sequence in a
    /// label value, and a family whose sample names overlap the honest daemon's.
    static let evil2 = """
        # TYPE evil_total counter
        evil_total{__name__="verticals_service_up"} 1
        evil_total{a="1"} 1
        evil_total{a="1"} 2
        evil_total{a="\u{1B}]0;owned\u{07}"} 3
        # TYPE evil_seconds histogram
        evil_seconds_bucket{le="0.1"} 5
        evil_seconds_bucket{le="+Inf"} 2
        evil_seconds_sum 1
        evil_seconds_count 2
        # TYPE queue histogram
        queue_bucket{le="+Inf"} 1
        queue_sum 1
        queue_count 1

        """

    static func merged() -> SuiteExposition.Merged {
        var suite = SuiteExposition()
        suite.add("honest", exposition: honest)
        suite.add("evil1", exposition: evil1)
        suite.add("evil2", exposition: evil2)
        suite.add("broken", exposition: "# TYPE x gauge\nx{a=\"1\" 1\n")
        suite.add("quiet", exposition: nil)
        return suite.merged(services) { _ in 4096 }
    }

    @Test func hostileDaemons_leaveAValidExposition_inWhichTheHonestOnesAndTheSupervisorStand() throws {
        let merged = Self.merged()
        let metrics = try StrictExposition(merged.text)
        #expect(metrics.value("verticals_requests_total", ["service": "honest", "operation": "honest.get"]) == 3)
        #expect(metrics.value("shared_thing", ["service": "honest"]) == 1)
        #expect(metrics.types["verticals_service_state"] == "gauge")
        #expect(metrics.value("verticals_service_state", ["service": "evil1", "state": "ready"]) == 1)
        #expect(metrics.value("verticals_service_state", ["service": "accounts"]) == nil)
        #expect(metrics.types["shared_thing"] == "gauge")
        #expect(metrics.value("queue_count", ["service": "honest"]) == 4)
        #expect(metrics.types["queue"] == nil)
        #expect(!merged.text.unicodeScalars.contains { $0 != "\n" && VisibleText.isEscaped($0) })
    }

    @Test func aDaemonsServiceLabel_becomesExportedService_andTheSupervisorsIsTheTruth() throws {
        let metrics = try StrictExposition(Self.merged().text)
        #expect(
            metrics.value(
                "verticals_requests_total",
                ["service": "evil1", "exported_service": "accounts", "operation": "accounts.logIn"]) == 99)
        #expect(
            metrics.value("verticals_requests_total", ["operation": "x"]) == nil,
            "service and exported_service both set")
    }

    @Test func everyRewrite_isCounted_perServiceAndReason() throws {
        let merged = Self.merged()
        #expect(merged.rewritten["evil1"] == [.supervisorFamily: 1, .serviceLabel: 2, .conflictingFamily: 1])
        #expect(
            merged.rewritten["evil2"] == [
                .reservedLabel: 1, .duplicateSeries: 1, .invalidHistogram: 4, .conflictingFamily: 3,
            ])
        #expect(merged.rewritten["honest"] == nil)
        let metrics = try StrictExposition(merged.text)
        #expect(
            metrics.value(
                "verticals_service_scrape_rewritten_samples", ["service": "evil1", "reason": "service_label"]) == 2)
        #expect(
            metrics.value(
                "verticals_service_scrape_rewritten_samples", ["service": "evil2", "reason": "invalid_histogram"]) == 4)
    }

    @Test func aDaemonWhoseTextDoesNotParse_isDownForItselfAlone() throws {
        let merged = Self.merged()
        #expect(merged.unparsed.map(\.service) == ["broken"])
        let metrics = try StrictExposition(merged.text)
        #expect(metrics.value("verticals_service_scrape_up", ["service": "broken"]) == 0)
        #expect(metrics.value("verticals_service_scrape_up", ["service": "quiet"]) == 0)
        #expect(metrics.value("verticals_service_scrape_up", ["service": "evil1"]) == 1)
        #expect(metrics.value("verticals_service_scrape_up", ["service": "honest"]) == 1)
    }

    @Test func aLabelValuesControlSequence_showsAsText_readBackAsItsEscape() throws {
        let metrics = try StrictExposition(Self.merged().text)
        #expect(metrics.value("evil_total", ["service": "evil2", "a": "\\x1b]0;owned\\x07"]) == 3)
        #expect(metrics.value("evil_total", ["service": "evil2", "a": "1"]) == 1)
    }

    /// A daemon answering with twenty thousand families: the merge looks each family up once,
    /// where it compared each with every other (32 s of root's CPU at 9,000 families, hours at a
    /// frame's worth), and a second daemon's families that clash are still dropped. How long it
    /// takes is not asserted: a loaded machine decides it.
    @Test func aDaemonWithTwentyThousandFamilies_isMerged_andClashesAreStillFound() throws {
        let count = 20_000
        var many = ""
        for index in 0..<count { many += "# TYPE many_\(index) gauge\nmany_\(index) \(index)\n" }
        let clashing =
            "# TYPE many_7 counter\nmany_7 1\n# TYPE many_8_bucket gauge\nmany_8_bucket 1\n# TYPE fresh gauge\nfresh 2\n"
        var suite = SuiteExposition()
        suite.add("honest", exposition: many)
        suite.add("evil1", exposition: clashing)
        let merged = suite.merged(Self.services, residentBytes: { _ in nil })
        #expect(merged.unparsed.isEmpty)
        #expect(merged.rewritten["honest"] == nil)
        #expect(merged.rewritten["evil1"] == [.conflictingFamily: 1], "\(merged.rewritten)")
        let metrics = try StrictExposition(merged.text)
        #expect(metrics.value("many_19999", ["service": "honest"]) == 19_999)
        #expect(metrics.value("fresh", ["service": "evil1"]) == 2)
    }
}
