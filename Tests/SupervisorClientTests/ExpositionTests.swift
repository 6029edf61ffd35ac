import Testing
import VerticalsContract
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsSharedTesting

@Suite("Exposition: merging daemons' Prometheus text")
struct ExpositionTests {
    static let catalog = """
        # TYPE verticals_requests_total counter
        verticals_requests_total{operation="catalog.get"} 4
        # TYPE verticals_request_duration_seconds histogram
        verticals_request_duration_seconds_bucket{operation="catalog.get",le="0.001"} 3
        verticals_request_duration_seconds_bucket{operation="catalog.get",le="+Inf"} 4
        verticals_request_duration_seconds_sum{operation="catalog.get"} 0.0042
        verticals_request_duration_seconds_count{operation="catalog.get"} 4

        """
    static let archive = """
        # HELP verticals_requests_total Requests.
        # TYPE verticals_requests_total counter
        verticals_requests_total{operation="archive.history"} 1
        # TYPE verticals_connections_open gauge
        verticals_connections_open 2

        """

    @Test func twoDaemons_mergeIntoOneFamilyEach_everySampleLabelledWithItsService() throws {
        var suite = Exposition()
        try suite.add(Exposition.parse(Self.catalog), service: "catalog")
        try suite.add(Exposition.parse(Self.archive), service: "archive")

        let metrics = try StrictExposition(suite.text)

        #expect(
            suite.families.map(\.name) == [
                "verticals_requests_total", "verticals_request_duration_seconds", "verticals_connections_open",
            ])
        #expect(metrics.value("verticals_requests_total", ["service": "catalog", "operation": "catalog.get"]) == 4)
        #expect(metrics.value("verticals_requests_total", ["service": "archive", "operation": "archive.history"]) == 1)
        #expect(metrics.value("verticals_connections_open", ["service": "archive"]) == 2)
        #expect(metrics.value("verticals_request_duration_seconds_count", ["service": "catalog"]) == 4)
    }

    @Test func labelValues_areEscapedBothWays() throws {
        let text = #"x_total{path="a\"b\\c\nd"} 1"# + "\n"
        var suite = Exposition()
        try suite.add(Exposition.parse(text), service: "s")

        let sample = try #require(suite.families.first?.samples.first)
        #expect(sample.labels.last?.1 == "a\"b\\c\nd")
        #expect(try StrictExposition(suite.text).value("x_total", ["path": "a\"b\\c\nd"]) == 1)
    }

    @Test(arguments: [
        "9bad 1\n", "x{a=\"1\" 1\n", "x{a=1} 1\n", "x one\n", "# TYPE x countr\n",
        "# TYPE x counter\n# TYPE x counter\n", "# TYPE x gauge\nx 1\n# TYPE y gauge\ny 1\nx 2\n", "x{a=\"\\q\"} 1\n",
    ])
    func malformedText_isRefused_withTheLine(text: String) {
        #expect(throws: Exposition.ParseError.self) { try Exposition.parse(text) }
    }

    @Test func oneFamilyOfTwoTypes_isRefused() throws {
        var suite = Exposition()
        try suite.add(Exposition.parse("# TYPE x counter\nx 1\n"), service: "a")
        #expect(throws: Exposition.ParseError.self) {
            try suite.add(Exposition.parse("# TYPE x gauge\nx 1\n"), service: "b")
        }
    }

    @Test func supervisorFamilies_giveOneStateSamplePerKnownState_andRSSOfLiveProcesses() throws {
        let services = [
            Supervisor.ServiceStatus(
                name: "catalog", state: .ready, pid: 42, restarts: 2, lastExit: "", ready: true, statusText: "",
                receives: []),
            Supervisor.ServiceStatus(
                name: "archive", state: .failed, restarts: 5, lastExit: "killed", ready: false, statusText: "",
                receives: []),
        ]
        var suite = Exposition()
        try suite.add(
            SuiteMetrics.supervisorFamilies(services, scraped: ["catalog": true]) { $0 == 42 ? 4096 : nil })

        let metrics = try StrictExposition(suite.text)

        #expect(metrics.value("verticals_service_restarts_total", ["service": "archive"]) == 5)
        #expect(metrics.value("verticals_service_state", ["service": "archive", "state": "failed"]) == 1)
        #expect(metrics.value("verticals_service_state", ["service": "archive", "state": "ready"]) == 0)
        #expect(metrics.value("verticals_service_resident_memory_bytes", ["service": "catalog"]) == 4096)
        #expect(metrics.value("verticals_service_resident_memory_bytes", ["service": "archive"]) == nil)
        #expect(metrics.value("verticals_service_scrape_up", ["service": "archive"]) == 0)
    }
}
