import Testing
import VerticalsSupervisor

/// `host = "a"`: where a service runs when one manifest describes several hosts
/// (`export systemd --host`); a name the export could not match is a problem naming the key.
@Suite struct ManifestHostTests {
    @Test func host_isParsed_andDecidesWhichServicesRunOnEachHost() throws {
        let manifest = ManifestFixture.valid(
            """
            [services.identity]
            executable = "true"
            host = "a"
            endpoint = "tcp:10.0.0.2:7001"
            [services.clinics]
            executable = "true"
            host = "b"
            depends_on = ["identity"]
            [services.audit]
            executable = "true"
            [services.mail]
            endpoint = "tcp:10.0.0.9:25"
            """)
        #expect(manifest["identity"]?.host == "a")
        let runs = { (host: String?) in manifest.services.filter { $0.runs(on: host) }.map(\.name) }
        #expect(runs("a") == ["identity", "audit"], "a service placed nowhere runs on every host")
        #expect(runs("b") == ["clinics", "audit"])
        #expect(runs(nil) == ["identity", "clinics", "audit"], "a remote service runs nowhere")
    }

    @Test(arguments: ["\"Host A\"", "\"\"", "7"])
    func badHost_isAProblemNamingTheKey(value: String) throws {
        let problems = ManifestFixture.problems("[services.one]\nexecutable = \"true\"\nhost = \(value)\n")
        #expect(problems.only(service: "one", key: "host") != nil, "\(problems)")
    }
}
