import Testing
import VerticalsSupervisor
import VerticalsSupervisorClient

/// A service starts from an allow-listed environment, never the supervisor's whole one: the
/// operator's TLS files exported for the CLI, a token or a password in root's shell reach no
/// vertical.
@Suite struct ChildEnvironmentTests {
    static let supervisors: [String: String] = [
        "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_TIME": "en_GB.UTF-8", "TZ": "UTC", "HOME": "/root",
        "VERTICALS_TLS_CERT": "/etc/verticals/certs/operator/tls.crt",
        "VERTICALS_TLS_KEY": "/etc/verticals/certs/operator/tls.key", "VERTICALS_TLS_CA": "/etc/verticals/certs/ca.crt",
        "AWS_SECRET_ACCESS_KEY": "secret", "VT_TEST_TAG": "run-7",
        "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318",
        "OTEL_BSP_MAX_QUEUE_SIZE": "64", "NOTIFY_SOCKET": "/run/systemd/notify", "LISTEN_FDS": "3",
    ]

    @Test func inherited_keepsTheFixedList_andNothingElse_whenNothingIsPassed() {
        let base = ChildEnvironment.inherited(from: Self.supervisors)
        #expect(base == ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_TIME": "en_GB.UTF-8", "TZ": "UTC"])
    }

    @Test func inherited_passesTheNamedVariables_andPrefixes_butNeverTheTLSFiles_orTheHandOff() {
        var supervisors = Self.supervisors
        supervisors["VERTICALS_PASS_ENVIRONMENT"] =
            "VT_TEST_TAG,OTEL_* VERTICALS_TLS_KEY VERTICALS_TLS* NOTIFY_SOCKET LISTEN_FDS *"
        let base = ChildEnvironment.inherited(from: supervisors)
        #expect(base["VT_TEST_TAG"] == "run-7")
        #expect(
            base["OTEL_EXPORTER_OTLP_ENDPOINT"] == "http://collector:4318" && base["OTEL_BSP_MAX_QUEUE_SIZE"] == "64")
        #expect(base.keys.filter { $0.hasPrefix("VERTICALS_TLS") }.isEmpty, "the operator's TLS files: \(base)")
        #expect(base["NOTIFY_SOCKET"] == nil && base["LISTEN_FDS"] == nil, "the supervisor's own manager's hand-off")
        #expect(base["AWS_SECRET_ACCESS_KEY"] == nil && base["HOME"] == nil, "a lone * passes nothing")
        #expect(base["VERTICALS_PASS_ENVIRONMENT"] == nil)
    }

    @Test func theEngine_startsFromTheAllowListedPart_ofTheEnvironmentItIsGiven() {
        let configuration = EngineConfiguration(
            runDirectory: RunDirectory("/tmp/unused"), execShim: "/bin/true", programDirectory: "/bin",
            environment: Self.supervisors)
        #expect(configuration.environment["VERTICALS_TLS_KEY"] == nil)
        #expect(configuration.environment["AWS_SECRET_ACCESS_KEY"] == nil)
        #expect(configuration.environment["PATH"] == "/usr/bin:/bin")
    }
}
