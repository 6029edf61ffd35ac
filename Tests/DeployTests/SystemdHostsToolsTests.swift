import Glibc
import Testing
import VerticalsDeploy
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting

/// Each host's units of the tests' two-host suite (``SystemdHostsFixture``) as systemd's own
/// tools read them, programs linked to the ones this build made.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2))) struct SystemdHostsToolsTests {
    /// Host `host`'s units written to `<directory>/units`, programs in `<directory>/bin`.
    static func install(host: String, in directory: TemporaryDirectory) throws -> [String: String] {
        try DeployFixture.linkPrograms(in: directory)
        let layout = SystemdLayout(prefix: directory.path)
        let files = try SystemdHostsFixture.files(host: host, layout: layout)
        try DeployFixture.writeUnits(files, in: directory)
        return files
    }

    /// `systemd-analyze verify` exits 0 on unknown keys and bad values, printing them: any
    /// output fails.
    @Test(arguments: SystemdHostsFixture.hosts)
    func verify_acceptsEveryUnitOfTheHost_withoutASingleLine(host: String) throws {
        let directory = TemporaryDirectory()
        try DeployFixture.verify(Self.install(host: host, in: directory), in: directory)
    }

    /// A host whose vertical calls a remote service (an endpoint, no executable) and exports traces
    /// to a collector: its units verify without a line too.
    @Test func verify_acceptsACallerOfARemoteServiceWithoutExecutable_andOfACollector() throws {
        let directory = TemporaryDirectory()
        let layout = SystemdLayout(prefix: directory.path)
        let manifest = try DeployFixture.manifest(
            """
            [services.ledger]
            endpoint = "tcp:10.0.0.2:7001"
            [services.catalog]
            executable = "vt-testd"
            args = ["catalog"]
            host = "a"
            endpoint = "tcp:10.0.0.3:7002"
            depends_on = ["ledger"]
            env = { OTEL_EXPORTER_OTLP_ENDPOINT = "http://10.0.0.9:4318" }
            """, binDirectory: layout.binDirectory)
        let files = try SystemdExport.files(for: manifest, layout: layout, host: "a")
        #expect(files["verticals-ledger.service"] == nil)
        #expect(
            SystemdHostsFixture.words("IPAddressAllow", in: files["verticals-catalog.service"] ?? "").contains(
                "10.0.0.9"))
        try DeployFixture.installAndVerify(files, in: directory)
    }

    /// The exposure of a TCP vertical's unit, and what it still pays for the network: no
    /// `PrivateNetwork=`, `AF_INET`/`AF_INET6`, and an allow-list that is not only localhost.
    @Test(arguments: ["a/catalog", "b/bookings"])
    func security_ratesATCPVertical_atMost1_1_payingOnlyForItsNetwork(unit: String) throws {
        let host = String(unit.prefix { $0 != "/" })
        let name = String(unit.drop { $0 != "/" }.dropFirst())
        let directory = TemporaryDirectory()
        _ = try Self.install(host: host, in: directory)
        let result = try runCommand(
            "/usr/bin/systemd-analyze",
            ["security", "--offline=true", directory.file("units/verticals-\(name).service")],
            in: directory)
        let score = try #require(SystemdToolsTests.exposure(result.standardOutput), "\(result.standardOutput)")
        #expect(score <= 1.1, "verticals-\(name).service scores \(score)")
        let failing = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("✗") }
            .compactMap { $0.split(separator: " ").dropFirst().first.map(String.init) }
        #expect(failing.contains("PrivateNetwork=") && failing.contains("IPAddressDeny="))
        #expect(!failing.contains("PrivateUsers=") && !failing.contains("SupplementaryGroups="), "\(failing)")
        print("systemd-analyze security --offline=true verticals-\(name).service (host \(host)): \(score)")
    }
}
