import Foundation

/// Section `cli`: what learning contracts at run time costs a whole CLI call.
/// `svc-supervisor call clinics nearest JSON` as a process, with a warm description cache (one
/// round trip), against `vt-bench-call`, a program with the clinics contract compiled in that
/// makes the same call and prints the same JSON; and the first call to a daemon, with a cold
/// cache (describe + call), against the warm one; and, to tell the two programs' start from the
/// call, each one started and exited at once (`svc-supervisor --version`, `vt-bench-call
/// --startup`). Each sample is one whole process, spawned
/// and waited for; the five are interleaved sample by sample, in a rotating order. Both programs
/// are linked alike (`make bench` builds both packages with the Makefile's `RELEASE_FLAGS`,
/// Swift's runtime and Foundation linked statically), so the row compares the calls, not the
/// dynamic loader.
struct CLIBenchmark {
    let settings: BenchSettings
    let report: Report
    let directory: String

    static let input = #"{"latitude": 51.5074, "longitude": -0.1278, "limit": 3}"#

    func run() {
        let folder = "\(directory)/cli"
        let sockets = "\(folder)/sockets"
        try? FileManager.default.createDirectory(atPath: sockets, withIntermediateDirectories: true)
        let clinics = Subprocess.start(
            "\(settings.binDirectory)/svc-clinics", [],
            environment: [
                "VERTICALS_SOCKET_DIR": sockets, "STATE_DIRECTORY": "\(folder)/state", "VERTICALS_LOG_LEVEL": "warning",
            ])
        defer { Subprocess.stop(clinics) }
        Subprocess.waitForListener("\(sockets)/clinics.sock")
        let cache = "\(folder)/cache"
        let cacheFolder = "\(cache)/verticals/describe"
        let environment = ["XDG_CACHE_HOME": cache, "VERTICALS_POINTER_DIR": "", "PATH": "/usr/bin:/bin"]
        let cli = [
            "\(settings.binDirectory)/svc-supervisor", "call", "clinics", "nearest", Self.input, "--socket-dir",
            sockets,
        ]
        let compiled = [settings.callBaseline, sockets, Self.input]

        // The same JSON from both, or the comparison means nothing.
        let (cliOutput, _) = Self.spawn(cli, environment: environment, output: "\(folder)/cli.out")
        let (compiledOutput, _) = Self.spawn(compiled, environment: environment, output: "\(folder)/compiled.out")
        guard cliOutput == compiledOutput, !cliOutput.isEmpty else {
            fail("svc-supervisor call and vt-bench-call print different JSON:\n\(cliOutput)\n---\n\(compiledOutput)")
        }

        let samples = Swift.max(20, settings.rounds * 4)
        var warm: [Double] = []
        var cold: [Double] = []
        var baseline: [Double] = []
        var cliStart: [Double] = []
        var compiledStart: [Double] = []
        let cliVersion = [cli[0], "--version"]
        let compiledStartup = [settings.callBaseline, "--startup"]
        for sample in 0..<samples {
            if sample % 10 == 0 { progress("cli call \(sample + 1)/\(samples)") }
            let runs: [() -> Void] = [
                { warm.append(Self.spawn(cli, environment: environment, output: "\(folder)/warm.out").milliseconds) },
                {
                    let (_, elapsed) = Self.spawn(compiled, environment: environment, output: "\(folder)/compiled.out")
                    baseline.append(elapsed)
                },
                {
                    // Cold: no description cached for the socket; the call asks daemon.describe first.
                    // (Then warm again for the next warm sample, whatever order comes next.)
                    try? FileManager.default.removeItem(atPath: cacheFolder)
                    cold.append(Self.spawn(cli, environment: environment, output: "\(folder)/cold.out").milliseconds)
                },
                { cliStart.append(Self.spawn(cliVersion, environment: environment, output: "\(folder)/start.out").1) },
                {
                    let (_, elapsed) = Self.spawn(
                        compiledStartup, environment: environment, output: "\(folder)/start.out")
                    compiledStart.append(elapsed)
                },
            ]
            for index in 0..<runs.count { runs[(index + sample) % runs.count]() }
        }
        report.add(
            "cli", "svc-supervisor call clinics nearest, warm cache (n=\(samples))", unit: "ms", ours: warm,
            baselineName: "contract compiled in (vt-bench-call)", baseline: baseline, ratioName: "learned/compiled",
            target: .atMost(1.2))
        report.add(
            "cli", "start and exit only: svc-supervisor --version (n=\(samples))", unit: "ms", ours: cliStart,
            baselineName: "vt-bench-call --startup", baseline: compiledStart, ratioName: "svc-supervisor/caller")
        // The call itself, beyond starting the program: the medians' difference (a per-sample
        // difference of two noisy process times is too noisy to take a ratio of).
        let learned = Summary(warm).median - Summary(cliStart).median
        let compiledCall = Summary(baseline).median - Summary(compiledStart).median
        report.note(
            "cli: the call beyond starting the program (median whole − median start): svc-supervisor "
                + "\(Format.number(learned)) ms, vt-bench-call \(Format.number(compiledCall)) ms")
        report.add(
            "cli", "first call, cold cache: describe + call (n=\(samples))", unit: "ms", ours: cold,
            baselineName: "warm cache", baseline: warm, ratioName: "cold/warm")
        // What each lean program weighs: it links the calling part (VerticalsClient) and not the
        // daemon runtime, metrics, tracing or OTLP; the engine links everything.
        if let engine = Self.mebibytes(of: "\(settings.binDirectory)/svc-supervisor-engine") {
            for program in ["svc-supervisor", "vt-settings"] {
                guard let size = Self.mebibytes(of: "\(settings.binDirectory)/\(program)") else { continue }
                report.add(
                    "cli", "program size: \(program)", unit: "MiB", ours: [size], baselineName: "svc-supervisor-engine",
                    baseline: [engine], ratioName: "\(program)/engine")
            }
        }
    }

    /// The size of the file at `path` in MiB, if it is there.
    static func mebibytes(of path: String) -> Double? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Double(status.st_size) / 1_048_576
    }

    /// Runs `command` to its end with standard output in `output`; what it printed and how long it took.
    static func spawn(_ command: [String], environment: [String: String], output: String) -> (
        String, milliseconds: Double
    ) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var merged = environment
        merged["VT_BENCH_TAG"] = Subprocess.tag
        let argv = command.map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let start = ContinuousClock.now
        guard posix_spawn(&pid, command[0], &actions, nil, argv, envp) == 0 else { fail("cannot spawn \(command[0])") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let elapsed = ContinuousClock.now - start
        guard status == 0 else { fail("\(command.joined(separator: " ")) exited with wait status \(status)") }
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return (text, elapsed.microseconds / 1000)
    }
}
