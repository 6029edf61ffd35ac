import Testing
import VerticalsSupervisor
import VerticalsSharedTesting

/// `host = "a"`: where a service runs when one manifest describes several hosts
/// (`export systemd --host`); a name the export could not match is a problem naming the key.
@Suite struct ManifestHostTests {
    @Test func host_isParsed_andDecidesWhichServicesRunOnEachHost() throws {
        let manifest = ManifestFixture.valid(
            """
            [services.ledger]
            executable = "true"
            host = "a"
            endpoint = "tcp:10.0.0.2:7001"
            [services.catalog]
            executable = "true"
            host = "b"
            depends_on = ["ledger"]
            [services.audit]
            executable = "true"
            [services.mail]
            endpoint = "tcp:10.0.0.9:25"
            """)
        #expect(manifest["ledger"]?.host == "a")
        let runs = { (host: String?) in manifest.services.filter { $0.runs(on: host) }.map(\.name) }
        #expect(runs("a") == ["ledger", "audit"], "a service placed nowhere runs on every host")
        #expect(runs("b") == ["catalog", "audit"])
        #expect(runs(nil) == ["ledger", "catalog", "audit"], "a remote service runs nowhere")
    }

    @Test(arguments: ["\"Host A\"", "\"\"", "7"])
    func badHost_isAProblemNamingTheKey(value: String) throws {
        let problems = ManifestFixture.problems("[services.one]\nexecutable = \"true\"\nhost = \(value)\n")
        #expect(problems.only(service: "one", key: "host") != nil, "\(problems)")
    }
}
