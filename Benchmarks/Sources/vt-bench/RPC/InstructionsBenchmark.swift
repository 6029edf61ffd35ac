import Foundation

/// Section `instructions`: the server's instructions per request, counted by callgrind, for the C
/// libuv echo and for our echo vertical with tracing off, sampled at 0 (the default) and sampled
/// at 1, for a 64 B and a 1 KiB typed request (targets: ours ≤ 7× the C echo at 64 B and ≤ 6× at
/// 1 KiB, where the C echo's own copying weighs more; tracing ≤ 3 % unsampled and ≤ 15 % sampled
/// over off); beside them, the same echo routed with `onSync` (a handler that answers at once,
/// served with no task): ≤ 4.5× the C echo at 64 B and ≤ 4× at 1 KiB.
///
/// Instructions, not time: on a shared virtual machine timings move by tens of percent from run
/// to run and hardware counters are often missing, while callgrind's counts repeat. Only the server runs under
/// valgrind; the client is the C echo's own (`uv_echo latency-frame`, one request in flight,
/// our request frame for both servers), so none of its instructions count. One server life
/// answers N and another 3N requests: the difference over 2N is one request, start-up,
/// shutdown and the listener probe cancelling out. Each program runs as a `strip --strip-debug`
/// copy (valgrind 3.19 rejects the toolchain's DWARF 5; the symbol table stays, so
/// `callgrind_annotate` names functions). The profiles of the first round's lives are kept in
/// `bench/callgrind/` (`off-64.out` the 3N life, `off-64.short.out` the N one), so
/// `scripts/callgrind-per-request.py` can say where one request's instructions go.
///
/// Then the other side: the client's instructions per request, ours (`vt-bench echo-latency`, the
/// typed `ServiceClient.call`) beside the C client (`uv_echo latency-frame`), each under callgrind
/// and both calling the same C echo server, which runs natively and answers with a response frame.
/// Their profiles are kept as `client-ours-64.out` (and `.short.out`) beside the server's. Target:
/// ours ≤ 5× the C client.
struct InstructionsBenchmark {
    let settings: BenchSettings
    let report: Report
    let directory: String
    /// N: requests answered by the shorter life (the longer answers 3N).
    var count = 2_000
    /// Rounds at the most, whatever `BENCH_ROUNDS` asks: callgrind's counts repeat to the
    /// instruction from round to round, so more rounds only lengthen the run (each round is
    /// 28 lives under valgrind); three still show a count that does move. The quick run
    /// (`BENCH_ROUNDS` ≤ 2) takes one: its second round repeated the first to the instruction.
    static let maxRounds = 3

    /// The target of our server's instructions a request over the C echo's, at `size` bytes, with
    /// an async handler: at 1 KiB the C echo copies more of its own, so the same fixed cost is a
    /// smaller multiple.
    static func target(_ size: Int) -> Double { size <= 64 ? 7 : 6 }

    /// The same with `onSync`, whose request makes no task.
    static func syncTarget(_ size: Int) -> Double { size <= 64 ? 4.5 : 4 }

    /// The target of our typed client's instructions a call over the C client's.
    static let clientTarget = 5.0

    /// The rounds this run takes.
    var rounds: Int { settings.rounds <= 2 ? 1 : min(settings.rounds, Self.maxRounds) }

    enum Server: String, CaseIterable {
        case c = "C libuv echo"
        case off = "ours, tracing off"
        case sampledNone = "ours, sampled at 0"
        case sampledAll = "ours, sampled at 1"
        case sync = "ours, handler that answers at once (onSync)"

        /// The tracing environment of our server (VERTICALS_TRACING / _TRACE_SAMPLE_RATIO).
        var environment: [String: String] {
            switch self {
            case .c: [:]
            case .off: ["VERTICALS_TRACING": "off"]
            case .sampledNone: ["VERTICALS_TRACING": "on", "VERTICALS_TRACE_SAMPLE_RATIO": "0"]
            case .sampledAll: ["VERTICALS_TRACING": "on", "VERTICALS_TRACE_SAMPLE_RATIO": "1"]
            case .sync:
                ["VERTICALS_TRACING": "on", "VERTICALS_TRACE_SAMPLE_RATIO": "0", "VT_BENCH_ECHO_HANDLER": "sync"]
            }
        }

        var fileName: String {
            switch self {
            case .c: "c"
            case .off: "off"
            case .sampledNone: "sampled-0"
            case .sampledAll: "sampled-1"
            case .sync: "sync"
            }
        }
    }

    /// The clients whose instructions per request the section counts.
    enum Client: String, CaseIterable {
        case c = "C libuv client"
        case ours = "ours, typed client (ServiceClient.call)"

        var fileName: String {
            switch self {
            case .c: "client-c"
            case .ours: "client-ours"
            }
        }
    }

    func run() {
        guard let valgrind = Self.which("valgrind"), let strip = Self.which("strip"), let python = Self.which("python3")
        else {
            let message =
                "instructions: skipped, valgrind (or strip, python3) is not installed; `scripts/install-deps.sh --test` installs valgrind"
            progress(message)
            report.note(message)
            return
        }
        let uvEcho = stripped(settings.uvEcho, as: "uv_echo", strip: strip)
        let ours = stripped(RPCBenchmark.ownExecutable, as: "vt-bench", strip: strip)
        let profiles = "\(settings.outputDirectory)/callgrind"
        try? FileManager.default.createDirectory(atPath: profiles, withIntermediateDirectories: true)
        var perRequest: [String: [Double]] = [:]
        for round in 1...rounds {
            progress("instructions round \(round)/\(rounds) (callgrind)")
            for size in RPCBenchmark.sizes {
                // The figure `name` at `size` from `life`, its profiles kept in round 1 as `fileName`.
                func measure(_ name: String, _ fileName: String, _ life: (_ requests: Int, _ keep: String?) -> Int) {
                    let keep = round == 1 ? "\(profiles)/\(fileName)-\(size)" : nil
                    perRequest["\(name) \(size)", default: []].append(oneRequest(keeping: keep, life))
                }
                for client in Client.allCases {
                    let program = client == .c ? uvEcho : ours
                    measure(client.rawValue, client.fileName) { requests, keep in
                        clientLifeInstructions(client, program, valgrind, size: size, requests: requests, keep: keep)
                    }
                }
                for server in Server.allCases {
                    let program = server == .c ? uvEcho : ours
                    measure(server.rawValue, server.fileName) { requests, keep in
                        lifeInstructions(server, program, valgrind, python, size: size, requests: requests, keep: keep)
                    }
                }
            }
        }
        for size in RPCBenchmark.sizes {
            func series(_ server: Server) -> [Double] { perRequest["\(server.rawValue) \(size)"]! }
            let label = RPCBenchmark.label(size)
            report.add("instructions", "\(label) \(Server.c.rawValue)", unit: "instr/req", Summary(series(.c)))
            report.add(
                "instructions", "\(label) ours (default: sampled at 0)", unit: "instr/req", ours: series(.sampledNone),
                baselineName: "C", baseline: series(.c), ratioName: "ours/C", target: .atMost(Self.target(size)))
            report.add(
                "instructions", "\(label) \(Server.sync.rawValue)", unit: "instr/req", ours: series(.sync),
                baselineName: "C", baseline: series(.c), ratioName: "ours/C", target: .atMost(Self.syncTarget(size)))
            report.add(
                "instructions", "\(label) \(Server.off.rawValue)", unit: "instr/req", ours: series(.off),
                baselineName: "C", baseline: series(.c), ratioName: "ours/C")
            report.add(
                "instructions", "\(label) \(Server.sampledNone.rawValue)", unit: "instr/req",
                ours: series(.sampledNone),
                baselineName: "off", baseline: series(.off), ratioName: "over off", target: .atMost(1.03))
            report.add(
                "instructions", "\(label) \(Server.sampledAll.rawValue)", unit: "instr/req", ours: series(.sampledAll),
                baselineName: "off", baseline: series(.off), ratioName: "over off", target: .atMost(1.15))
        }
        for size in RPCBenchmark.sizes {
            func series(_ client: Client) -> [Double] { perRequest["\(client.rawValue) \(size)"]! }
            let label = RPCBenchmark.label(size)
            report.add("instructions", "\(label) \(Client.c.rawValue)", unit: "instr/req", Summary(series(.c)))
            report.add(
                "instructions", "\(label) \(Client.ours.rawValue)", unit: "instr/req", ours: series(.ours),
                baselineName: "C", baseline: series(.c), ratioName: "ours/C", target: .atMost(Self.clientTarget))
        }
        for size in RPCBenchmark.sizes {
            // The table rounds to thousands; the medians in full, and tracing's cost in per cent.
            func median(_ server: Server) -> Double { Summary(perRequest["\(server.rawValue) \(size)"]!).median }
            let off = median(.off)
            let over = { (server: Server) in String(format: "%+.1f %%", (median(server) / off - 1) * 100) }
            report.note(
                "instructions \(RPCBenchmark.label(size)), medians per request: C \(Int(median(.c))), off \(Int(off)), "
                    + "sampled at 0 \(Int(median(.sampledNone))) (\(over(.sampledNone))), "
                    + "sampled at 1 \(Int(median(.sampledAll))) (\(over(.sampledAll))), "
                    + "answered at once (onSync, sampled at 0) \(Int(median(.sync)))")
        }
        for size in RPCBenchmark.sizes {
            func median(_ client: Client) -> Double { Summary(perRequest["\(client.rawValue) \(size)"]!).median }
            report.note(
                "instructions \(RPCBenchmark.label(size)), client medians per request: C \(Int(median(.c))), "
                    + "ours \(Int(median(.ours))) (\(String(format: "%.1f", median(.ours) / median(.c)))×)")
        }
        let requests = Self.answered(3 * count) - Self.answered(count)
        report.note(
            "instructions: callgrind profiles of the lives in \(profiles); where one request's go: "
                + "scripts/callgrind-per-request.py \(profiles)/off-64.short.out \(profiles)/off-64.out \(requests) "
                + "(the client's: client-ours-64.short.out client-ours-64.out)")
    }

    /// The total instructions of one life of `client` (under callgrind) making ``answered(_:)``
    /// calls of `size` body bytes, one in flight, to a C echo server running natively; its profile
    /// is copied to `keep` if given.
    private func clientLifeInstructions(
        _ client: Client, _ program: String, _ valgrind: String, size: Int, requests: Int, keep: String?
    ) -> Int {
        let profile = "\(directory)/callgrind-client.out"
        unlink(profile)
        let socketDirectory = "\(directory)/instructions"
        try? FileManager.default.createDirectory(atPath: socketDirectory, withIntermediateDirectories: true)
        let socket = "\(socketDirectory)/\(BenchEcho.name).sock"
        unlink(socket)
        let kind = BenchEcho.responseKindByte
        let server = Subprocess.start(settings.uvEcho, ["server", socket, "\(kind.offset)", "\(kind.value)"])
        Subprocess.waitForListener(socket)
        let callgrind = ["-q", "--tool=callgrind", "--callgrind-out-file=\(profile)", program]
        let samples = "\(directory)/client-samples.bin"
        switch client {
        case .c:
            let frame = RPCBenchmark.requestFrameFile(size, in: directory)
            _ = Subprocess.run(valgrind, callgrind + ["latency-frame", socket, frame, "\(requests)", samples])
        case .ours:
            _ = Subprocess.run(
                valgrind, callgrind + ["echo-latency", socketDirectory, "\(size)", "\(requests)", samples],
                environment: ["VERTICALS_LOG_LEVEL": "warning", "SWIFT_DETERMINISTIC_HASHING": "1"])
        }
        Subprocess.stop(server)
        return profileTotal(profile, of: client.rawValue, keep: keep)
    }

    /// Requests a life of `count` answers: the client's COUNT/10 warm-up ones, then COUNT.
    static func answered(_ count: Int) -> Int { count + count / 10 }

    /// One request's instructions: the difference of a life of N and one of 3N over the 2N
    /// requests between them. `life` runs one life of so many requests and keeps its profile at
    /// the path given (`PREFIX.short.out` for N, `PREFIX.out` for 3N; none without a prefix).
    private func oneRequest(keeping prefix: String?, _ life: (_ requests: Int, _ keep: String?) -> Int) -> Double {
        let short = life(count, prefix.map { "\($0).short.out" })
        let long = life(3 * count, prefix.map { "\($0).out" })
        return Double(long - short) / Double(Self.answered(3 * count) - Self.answered(count))
    }

    /// The total of the callgrind `profile` that `name`'s life just wrote, copied to `keep` if given.
    private func profileTotal(_ profile: String, of name: String, keep: String?) -> Int {
        guard let text = try? String(contentsOfFile: profile, encoding: .utf8),
            let total = Self.totalInstructions(callgrindOutput: text)
        else {
            fail("callgrind wrote no profile for \(name) (\(profile))")
        }
        if let keep {
            unlink(keep)
            try? FileManager.default.copyItem(atPath: profile, toPath: keep)
        }
        return total
    }

    /// The total instructions of one life of `server` (under callgrind) answering
    /// ``answered(_:)`` requests of `size` body bytes; its profile is copied to `keep` if given.
    private func lifeInstructions(
        _ server: Server, _ program: String, _ valgrind: String, _ python: String, size: Int, requests: Int,
        keep: String?
    ) -> Int {
        let profile = "\(directory)/callgrind.out"
        unlink(profile)
        let socketDirectory = "\(directory)/instructions"
        try? FileManager.default.createDirectory(atPath: socketDirectory, withIntermediateDirectories: true)
        // Through python3 (which the bench needs anyway), to start valgrind with no signal blocked: a
        // child of this program inherits its blocked SIGTERM (Foundation's Process keeps the mask),
        // the C echo never unblocks it, and a server killed with SIGKILL instead writes no profile.
        let valgrindArguments = [
            "-c",
            "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])",
            valgrind, "--tool=callgrind", "--callgrind-out-file=\(profile)", program,
        ]
        let socket: String
        let process: Process
        if server == .c {
            socket = "\(socketDirectory)/c.sock"
            unlink(socket)
            process = Subprocess.start(python, valgrindArguments + ["server", socket], quiet: true)
        } else {
            socket = "\(socketDirectory)/\(BenchEcho.name).sock"
            unlink(socket)
            var environment = server.environment
            environment["VERTICALS_SOCKET_DIR"] = socketDirectory
            environment["VERTICALS_LOG_LEVEL"] = "warning"
            // Swift seeds its string hashing per process, so a dictionary lookup probes more or
            // fewer slots from one life to the next (±70 instructions a request seen here).
            environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
            process = Subprocess.start(
                python, valgrindArguments + ["echo-server"], environment: environment, quiet: true)
        }
        Subprocess.waitForListener(socket, timeout: .seconds(120))
        _ = Subprocess.run(
            settings.uvEcho,
            ["latency-frame", socket, RPCBenchmark.requestFrameFile(size, in: directory), "\(requests)", "/dev/null"])
        Subprocess.stop(process, grace: .seconds(120))
        return profileTotal(profile, of: server.rawValue, keep: keep)
    }

    /// The `summary:` (or `totals:`) line of a callgrind profile: the instructions of the whole life.
    static func totalInstructions(callgrindOutput text: String) -> Int? {
        for line in text.split(separator: "\n", omittingEmptySubsequences: true)
        where line.hasPrefix("summary:") || line.hasPrefix("totals:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }

    /// A `strip --strip-debug` copy of `program` in the run's folder (symbols kept).
    private func stripped(_ program: String, as name: String, strip: String) -> String {
        let copy = "\(directory)/\(name).stripped"
        unlink(copy)
        _ = Subprocess.run(strip, ["--strip-debug", "-o", copy, program])
        return copy
    }

    /// `name` found on PATH, or nil.
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}
