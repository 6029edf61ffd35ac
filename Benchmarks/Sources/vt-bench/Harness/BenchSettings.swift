import Foundation

/// What a run measures and where it finds the programs, from the environment `make bench` sets.
///
/// `BENCH_ROUNDS` (default 5) rounds of every interleaved comparison; `BENCH_IDLE_SECONDS`
/// (default 60) for the supervisor's idle window; `BENCH_KILLS` (default 20) kill -9 samples;
/// `BENCH_SECTIONS` (default all) a comma-separated subset of codec, rpc, instructions, allocations, tcp, cli,
/// supervisor, suite, mixed, upgrade, memory (and parts alone: `rpc-loops`, the N-loop rows of
/// rpc; `contract-check`, the connect-time check's rows of rpc; `curves-payload`,
/// `curves-connections` and `curves-services`, three curves of curves; `on-demand` and `after-settle`, two parts of supervisor).
struct BenchSettings: Sendable {
    /// Rounds of each A/B comparison (≥ 5 for a published run).
    var rounds: Int
    /// Seconds the supervisor is watched while the suite idles.
    var idleSeconds: Int
    /// kill -9 → READY samples.
    var kills: Int
    /// Sections to run.
    var sections: Set<String>
    /// The root package's release bin folder (daemons, svc-supervisor, vt-exec).
    var binDirectory: String
    /// The C libuv echo baseline.
    var uvEcho: String
    /// The RPC section's gRPC Swift 2 peer (`vt-grpc-echo`, beside vt-bench).
    var grpcEcho: String
    /// The CLI row's baseline: a call with the contract compiled in (`vt-bench-call`, beside vt-bench).
    var callBaseline: String
    /// The suite's manifest.
    var manifest: String
    /// Where results.json goes.
    var outputDirectory: String
    /// The checkout (`VT_ROOT`): its scripts.
    var rootDirectory: String

    static let allSections: [String] = [
        "codec", "rpc", "curves", "instructions", "allocations", "tcp", "cli", "supervisor", "suite", "mixed",
        "upgrade", "memory", "replication",
    ]

    /// The settings from `environment`; exits with a message when a program is missing.
    static func from(_ environment: [String: String]) -> BenchSettings {
        func int(_ key: String, _ fallback: Int) -> Int {
            environment[key].flatMap { Int($0) }.map { Swift.max(1, $0) } ?? fallback
        }
        let root = environment["VT_ROOT"] ?? FileManager.default.currentDirectoryPath
        let sections = environment["BENCH_SECTIONS"].map { Set($0.split(separator: ",").map(String.init)) }
        let settings = BenchSettings(
            rounds: int("BENCH_ROUNDS", 5), idleSeconds: int("BENCH_IDLE_SECONDS", 60), kills: int("BENCH_KILLS", 20),
            sections: sections ?? Set(allSections),
            binDirectory: environment["VT_BIN"] ?? "\(root)/.build/release",
            uvEcho: environment["UV_ECHO"] ?? "\(root)/bench/uv_echo",
            grpcEcho: environment["VT_GRPC_ECHO"] ?? Self.besideThisProgram("vt-grpc-echo"),
            callBaseline: environment["VT_BENCH_CALL"] ?? Self.besideThisProgram("vt-bench-call"),
            manifest: environment["VT_MANIFEST"] ?? "\(root)/deploy/suite.toml",
            outputDirectory: environment["BENCH_OUT"] ?? "\(root)/bench", rootDirectory: root)
        for program in [
            settings.uvEcho, settings.grpcEcho, "\(settings.binDirectory)/svc-supervisor",
            "\(settings.binDirectory)/vt-exec",
        ]
        where !FileManager.default.isExecutableFile(atPath: program) {
            fail("\(program) is missing: run `make bench`, which builds it")
        }
        return settings
    }

    /// `name` in the folder of the running program (the Benchmarks package's bin folder).
    static func besideThisProgram(_ name: String) -> String {
        let path = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        return (path as NSString).deletingLastPathComponent + "/" + name
    }

    /// Whether `section` is to run.
    func runs(_ section: String) -> Bool { sections.contains(section) }

    /// Measures each of `points` points once a round, for ``rounds`` rounds: a curve's points
    /// interleaved, so that no point always runs first or on a machine busier than the others'.
    func interleaved(_ label: String, points: Int, _ measure: (Int) -> Void) {
        for round in 1...rounds {
            progress("\(label), round \(round)/\(rounds)")
            for index in 0..<points { measure(index) }
        }
    }
}

/// Stops the run with `message` on standard error.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("vt-bench: \(message)\n".utf8))
    exit(1)
}

/// A progress line on standard error (the table goes to standard output).
func progress(_ message: String) {
    FileHandle.standardError.write(Data("  · \(message)\n".utf8))
}
