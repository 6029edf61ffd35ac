import Glibc
import Testing
import VerticalsSupervisor
import VerticalsSharedTesting
import VerticalsTesting

/// Reading a valid manifest: values, defaults, order, executables.
@Suite struct ManifestParserTests {
    @Test func everyKey_isRead() throws {
        let (manifest, problems) = ManifestFixture.parse(
            """
            [services.worker]
            executable = "true"
            args = ["--fast", "two words"]
            env = { MODE = "test", EMPTY = "" }
            restart = "always"
            backoff = { initial = "250ms", max = "1m30s", multiplier = 3 }
            budget = { restarts = 0, window = "1h" }
            readiness = "none"
            ready_timeout = "1.5s"
            stop_signal = "INT"
            stop_timeout = "2s"
            watchdog = "5s"
            log_max_bytes = 4096
            socket = false
            """)
        #expect(problems == [])
        let worker = try #require(manifest["worker"])
        #expect(worker.executable == "/bin/true")
        #expect(worker.arguments == ["--fast", "two words"])
        #expect(worker.environment == ["MODE": "test", "EMPTY": ""])
        #expect(worker.restart == .always)
        #expect(worker.backoff == Backoff(initial: .milliseconds(250), max: .seconds(90), multiplier: 3))
        #expect(worker.budget == RestartBudget(maxRestarts: 0, window: .seconds(3600)))
        #expect(worker.readiness == Readiness.none)
        #expect(worker.readyTimeout == .milliseconds(1500))
        #expect(worker.stopSignal == 2)
        #expect(worker.stopTimeout == .seconds(2))
        #expect(worker.watchdog == .seconds(5))
        #expect(worker.logMaxBytes == 4096)
        #expect(worker.socket == false)
    }

    @Test func unsetKeys_keepTheModelsDefaults() throws {
        let (manifest, problems) = ManifestFixture.parse("[services.plain]\nexecutable = \"true\"\n")
        #expect(problems == [])
        #expect(manifest["plain"] == ServiceSpec(name: "plain", executable: "/bin/true"))
    }

    @Test func defaults_applyToEveryService_andMergeTablesKeyByKey() throws {
        let (manifest, problems) = ManifestFixture.parse(
            """
            [defaults]
            restart = "always"
            stop_signal = "SIGQUIT"
            env = { SHARED = "1", MODE = "default" }
            backoff = { initial = "1s", multiplier = 4.0 }

            [services.first]
            executable = "true"

            [services.second]
            executable = "true"
            restart = "never"
            env = { MODE = "own" }
            backoff = { max = "5s" }
            """)
        #expect(problems == [])
        let first = try #require(manifest["first"])
        let second = try #require(manifest["second"])
        #expect(first.restart == .always)
        #expect(first.stopSignal == 3)
        #expect(first.environment == ["SHARED": "1", "MODE": "default"])
        #expect(first.backoff == Backoff(initial: .seconds(1), max: .seconds(30), multiplier: 4))
        #expect(second.restart == .never)
        #expect(second.stopSignal == 3)
        #expect(second.environment == ["SHARED": "1", "MODE": "own"])
        #expect(second.backoff == Backoff(initial: .seconds(1), max: .seconds(5), multiplier: 4))
    }

    @Test func services_keepTheFilesOrder() throws {
        let (manifest, problems) = ManifestFixture.parse(
            ManifestFixture.graph(["zeta": [], "alpha": [], "mid": [], "beta": []]))
        #expect(problems == [])
        #expect(manifest.services.map(\.name) == ["zeta", "alpha", "mid", "beta"])
    }

    @Test func startOrder_putsDependenciesFirst_andOtherwiseKeepsFileOrder() throws {
        let (manifest, problems) = ManifestFixture.parse(
            ManifestFixture.graph([
                "web": ["api", "cache"], "cache": [], "api": ["db"], "db": [], "cron": [],
            ]))
        #expect(problems == [])
        #expect(try manifest.startOrder() == ["cache", "db", "api", "web", "cron"])
        #expect(try manifest.stopOrder() == ["cron", "web", "api", "db", "cache"])
    }

    @Test(arguments: [
        ("true", "/usr/bin", "/usr/bin/true"),
        ("/bin/true", "/nowhere", "/bin/true"),
        ("../../bin/./true", "/nowhere", "/bin/true"),
    ])
    func executable_isResolvedToAnAbsolutePath(written: String, bin: String, resolved: String) throws {
        let (manifest, problems) = ManifestFixture.parse(
            "[services.one]\nexecutable = \"\(written)\"\n", bin: bin, base: "/usr/share")
        #expect(problems == [])
        #expect(manifest["one"]?.executable == resolved)
    }

    @Test(arguments: [
        ("100ms", Duration.milliseconds(100)), ("10s", .seconds(10)), ("2m", .seconds(120)), ("1h", .seconds(3600)),
        ("1m30s", .seconds(90)), ("0.5s", .milliseconds(500)), ("1h2m3s4ms", .milliseconds(3_723_004)),
    ])
    func durations_readWithTheirUnits(text: String, duration: Duration) {
        #expect(ManifestUnits.duration(text) == duration)
    }

    @Test(arguments: [
        (Duration.milliseconds(100), "100ms"), (.seconds(30), "30s"), (.seconds(90), "1m30s"), (.seconds(3600), "1h"),
        (.milliseconds(3_723_004), "1h2m3s4ms"), (.zero, "0ms"),
    ])
    func durations_printAsTheyAreWritten(duration: Duration, text: String) {
        #expect(ManifestUnits.text(duration) == text)
        #expect(duration == .zero || ManifestUnits.duration(text) == duration)
    }

    @Test(arguments: ["", "10", "s", "10 s", "10sec", "-1s", "1.2.3s", "10S"])
    func durations_withoutAUnit_areRefused(text: String) {
        #expect(ManifestUnits.duration(text) == nil)
    }

    @Test(arguments: [("4096", 4096), ("10MiB", 10 << 20), ("1KB", 1000), ("2 GiB", 2 << 30), ("7B", 7)])
    func sizes_readWithTheirUnits(text: String, bytes: Int) {
        #expect(ManifestUnits.byteCount(text) == bytes)
    }

    @Test func signals_readByNameOrNumber() {
        #expect(ManifestUnits.signal("SIGTERM") == 15)
        #expect(ManifestUnits.signal("hup") == 1)
        #expect(ManifestUnits.signal("SIGNOPE") == nil)
        #expect(ManifestUnits.signalName(9) == "SIGKILL")
    }
}

/// Manifests for the parser tests: text in, manifest and problems out.
extension ManifestFixture {
    /// Parses `text` as if it lived in `/etc/vt` with programs beside svc-supervisor in `/bin`
    /// (so `executable = "true"` is `/bin/true`).
    static func parse(_ text: String, bin: String = "/bin", base: String = "/etc/vt") -> (Manifest, [ManifestError]) {
        ManifestParser.parse(text: text, baseDirectory: base, binDirectory: bin)
    }

    /// The manifest of `text`, expecting it to have no problem.
    static func valid(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Manifest {
        let (manifest, problems) = parse(text)
        #expect(problems.isEmpty, "\(problems)", sourceLocation: sourceLocation)
        return manifest
    }

    /// Only the problems of `text`.
    static func problems(_ text: String) -> [ManifestError] {
        parse(text).1
    }

    /// A manifest of services that each run `/bin/true`, with `depends_on` as given, in this order.
    static func graph(_ dependencies: KeyValuePairs<String, [String]>) -> String {
        dependencies.map { name, dependsOn in
            let list = dependsOn.map { "\"\($0)\"" }.joined(separator: ", ")
            return "[services.\(name)]\nexecutable = \"true\"\ndepends_on = [\(list)]\n"
        }.joined(separator: "\n")
    }
}

extension [ManifestError] {
    /// The one problem about `service` at `key`, or a failed expectation.
    func only(service: String?, key: String?, sourceLocation: SourceLocation = #_sourceLocation) -> ManifestError? {
        let matching = filter { $0.service == service && $0.key == key }
        #expect(
            matching.count == 1, "expected one problem at \(service ?? "-").\(key ?? "-") in \(self)",
            sourceLocation: sourceLocation)
        #expect(count == 1, "expected no other problem, got \(self)", sourceLocation: sourceLocation)
        return matching.first
    }
}
