import Testing
import VerticalsContract
import VerticalsSupervisor
import VerticalsSupervisorClient

@Suite("Exposition: merging daemons' Prometheus text")
struct ExpositionTests {
    static let clinics = """
        # TYPE verticals_requests_total counter
        verticals_requests_total{operation="clinics.get"} 4
        # TYPE verticals_request_duration_seconds histogram
        verticals_request_duration_seconds_bucket{operation="clinics.get",le="0.001"} 3
        verticals_request_duration_seconds_bucket{operation="clinics.get",le="+Inf"} 4
        verticals_request_duration_seconds_sum{operation="clinics.get"} 0.0042
        verticals_request_duration_seconds_count{operation="clinics.get"} 4

        """
    static let records = """
        # HELP verticals_requests_total Requests.
        # TYPE verticals_requests_total counter
        verticals_requests_total{operation="records.history"} 1
        # TYPE verticals_connections_open gauge
        verticals_connections_open 2

        """

    @Test func twoDaemons_mergeIntoOneFamilyEach_everySampleLabelledWithItsService() throws {
        var suite = Exposition()
        try suite.add(Exposition.parse(Self.clinics), service: "clinics")
        try suite.add(Exposition.parse(Self.records), service: "records")

        let metrics = try StrictExposition(suite.text)

        #expect(suite.families.map(\.name) == [
            "verticals_requests_total", "verticals_request_duration_seconds", "verticals_connections_open",
        ])
        #expect(metrics.value("verticals_requests_total", ["service": "clinics", "operation": "clinics.get"]) == 4)
        #expect(metrics.value("verticals_requests_total", ["service": "records", "operation": "records.history"]) == 1)
        #expect(metrics.value("verticals_connections_open", ["service": "records"]) == 2)
        #expect(metrics.value("verticals_request_duration_seconds_count", ["service": "clinics"]) == 4)
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
                name: "clinics", state: .ready, pid: 42, restarts: 2, lastExit: "", ready: true, statusText: ""),
            Supervisor.ServiceStatus(
                name: "records", state: .failed, restarts: 5, lastExit: "killed", ready: false, statusText: ""),
        ]
        var suite = Exposition()
        try suite.add(
            SuiteMetrics.supervisorFamilies(services, scraped: ["clinics": true]) { $0 == 42 ? 4096 : nil })

        let metrics = try StrictExposition(suite.text)

        #expect(metrics.value("verticals_service_restarts_total", ["service": "records"]) == 5)
        #expect(metrics.value("verticals_service_state", ["service": "records", "state": "failed"]) == 1)
        #expect(metrics.value("verticals_service_state", ["service": "records", "state": "ready"]) == 0)
        #expect(metrics.value("verticals_service_resident_memory_bytes", ["service": "clinics"]) == 4096)
        #expect(metrics.value("verticals_service_resident_memory_bytes", ["service": "records"]) == nil)
        #expect(metrics.value("verticals_service_scrape_up", ["service": "records"]) == 0)
    }
}
