import Testing
import VerticalsEventLoop
import VerticalsSupervisor
import VerticalsSharedTesting

/// `endpoint = "tcp:HOST:PORT"`: parsed to a ``SocketEndpoint``, bad ones named; a service with an
/// endpoint and no executable is remote, left out of what this host runs.
@Suite struct ManifestEndpointTests {
    @Test func tcpEndpoint_isParsed_andAServiceWithoutExecutableIsRemote() throws {
        let manifest = ManifestFixture.valid(
            """
            [services.ledger]
            endpoint = "tcp:10.0.0.2:7001"

            [services.catalog]
            executable = "true"
            endpoint = "tcp:[::1]:7002"

            [services.orders]
            executable = "true"
            depends_on = ["ledger", "catalog"]
            """)
        let ledger = try #require(manifest["ledger"])
        #expect(ledger.endpoint == .tcp(host: "10.0.0.2", port: 7001))
        #expect(ledger.isRemote)
        #expect(manifest["catalog"]?.isRemote == false)
        #expect(manifest["orders"]?.endpoint == nil)

        let runnable = manifest.runnable
        #expect(runnable.services.map(\.name) == ["catalog", "orders"])
        #expect(runnable["orders"]?.dependsOn == ["catalog"], "nobody here waits for a remote service")
        #expect(
            manifest.endpoints == [
                "ledger": .tcp(host: "10.0.0.2", port: 7001), "catalog": .tcp(host: "::1", port: 7002),
            ])
    }

    @Test(arguments: [
        ("endpoint = \"tcp:127.0.0.1\"", "names no port"),
        ("endpoint = \"tcp:127.0.0.1:99999\"", "not a number from 0 to 65535"),
        ("endpoint = \"http://x:80\"", "neither unix: nor tcp:"),
        ("endpoint = \"unix:/run/x.sock\"", "must be tcp:HOST:PORT"),
        ("endpoint = \"tcp:127.0.0.1:0\"", "port 0"),
        ("endpoint = 7001", "string"),
    ])
    func badEndpoint_isAProblemNamingTheServiceAndKey(line: String, message: String) throws {
        let problems = ManifestFixture.problems("[services.one]\nexecutable = \"true\"\n\(line)\n")
        let problem = try #require(problems.only(service: "one", key: "endpoint"), "\(problems)")
        #expect(problem.message.contains(message), "\(problem.message)")
    }

    @Test func endpointInDefaults_isRefused() throws {
        let problems = ManifestFixture.problems(
            "[defaults]\nendpoint = \"tcp:127.0.0.1:7001\"\n[services.one]\nexecutable = \"true\"\n")
        #expect(
            problems.contains { $0.key == "defaults.endpoint" && $0.code == .conflict }, "\(problems)")
    }

    @Test func serviceWithNeitherExecutableNorEndpoint_isStillAProblem() throws {
        let problems = ManifestFixture.problems("[services.one]\nargs = []\n")
        #expect(problems.only(service: "one", key: "executable") != nil, "\(problems)")
    }
}
