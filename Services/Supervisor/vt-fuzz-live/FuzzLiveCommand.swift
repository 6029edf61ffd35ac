import ArgumentParser
import Glibc
import VerticalsSupervisorCommands
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsSupervisorClient
import VerticalsWire

/// `vt-fuzz-live` (`make fuzz-live`): starts a suite under its own `svc-supervisor up`, learns
/// every operation of every vertical from `daemon.describe`, and fuzzes them live with seeded
/// edge values, with and without real sessions and real ids, over Unix sockets and then over
/// TCP with mutual TLS. Exit 0 when every rule held, 1 with each finding printed, 2 when the
/// suite could not be started or learnt.
@main
struct FuzzLiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vt-fuzz-live",
        abstract: "Fuzz a live suite from what its daemons describe; every failure printed with its replay.",
        discussion: """
            Examples:
              vt-fuzz-live --seconds 60
              vt-fuzz-live --seed 1234 --seconds 600
              vt-fuzz-live --replay 0000004c0101… --replay-as patient
              vt-fuzz-live --cost --seconds 600
            """)

    @Option(help: "The suite's manifest.") var manifest = "deploy/suite.toml"
    @Option(help: "Seconds of fuzzing, shared by the transports.") var seconds: Double = 60
    @Option(help: "The seed (default: from the clock; printed).") var seed: UInt64?
    @Option(help: "Stop after this many requests per transport.") var maxRequests: Int?
    @Option(help: "Stop after this many findings.") var stopAfter: Int?
    @Option(
        help:
            "unix, tcp, hostile or hostile-tcp (--cost only), or both (Unix, then TCP with mutual TLS, then with --cost a hostile callee over each)."
    )
    var transport: Transport = .both
    @Option(help: "A frame to send again (hex, VERTICAL:HEX for a built-in, or @FILE), instead of fuzzing.")
    var replay: String?
    @Option(help: "With --replay: put this session's fresh token in the frame's token field (none, patient, admin).")
    var replayAs: String = "none"
    @Option(help: "Where frames too long for a command line are written.") var findings = ".build/fuzz-live"
    @Flag(help: "Keep the temporary run folder (it is kept anyway when something was found).") var keep = false
    @Flag(help: "Search for the costliest inputs and judge them by the cost budgets (make fuzz-cost).")
    var cost = false
    @Flag(help: "With --cost: judge sizes and counts only, not loop holds (a debug build's times mean nothing).")
    var sizesOnly = false

    @Option(
        help:
            "With --cost: the callee a hostile program replaces in the last phase (default: the one most depended on that has callees of its own)."
    )
    var hostile: String?
    @Option(help: "With --cost: rounds of plausible requests to every operation first, to learn real ids.")
    var learnRounds = 1
    @Option(help: .hidden) var hostileCallee: String?

    enum Transport: String, ExpressibleByArgument {
        case unix, tcp, hostile, both
        case hostileTCP = "hostile-tcp"
    }

    func run() async throws {
        // Run by `up` in a callee's place, in the hostile phase: serve, never fuzz.
        if let hostileCallee { throw ExitCode(HostileCallee.serve(description: hostileCallee)) }
        let seed =
            self.seed ?? UInt64(truncatingIfNeeded: ContinuousClock.now.hashValue)
            ^ UInt64(UInt32(truncatingIfNeeded: getpid()))
        let findingsFolder = findings.hasPrefix("/") ? findings : ProgramPaths.currentDirectory() + "/" + findings
        let manifestPath = manifest.hasPrefix("/") ? manifest : ProgramPaths.currentDirectory() + "/" + manifest
        guard access(manifestPath, R_OK) == 0 else {
            throw ExitCode.failure(2, "cannot read the manifest \(manifestPath)")
        }
        say("fuzz-live: seed \(seed)")
        var found = 0
        var phases: [(String, LivePhase.Kind)] = []
        if transport == .unix || transport == .both { phases.append(("unix", .unix)) }
        if transport == .tcp || transport == .both { phases.append(("tcp", .tcpWithMutualTLS)) }
        let callee = hostile ?? HostileManifest.likeliestCallee(in: manifestPath)
        if cost, transport == .hostile || transport == .hostileTCP || transport == .both {
            if callee != nil {
                if transport != .hostileTCP { phases.append(("hostile", .hostileCallee)) }
                if transport != .hostile { phases.append(("hostile-tcp", .hostileCalleeOverTLS)) }
            } else {
                say("fuzz-cost: no service both calls others and is called: no hostile callee phase")
            }
        }
        guard !phases.isEmpty else { throw ExitCode.failure(2, "--transport hostile and hostile-tcp need --cost") }
        // The seconds are fuzzing time, shared by the transports; starting and learning a suite
        // come on top. A transport gets what the ones before it left, and never less than its
        // share: one that ran over (a slow answer waited for) does not starve the next.
        let total = Duration.milliseconds(Int64(seconds * 1000))
        var remaining = total
        for (index, (name, kind)) in phases.enumerated() {
            var phase = LivePhase(
                kind: kind, manifest: manifestPath, seed: seed, findingsFolder: findingsFolder, keep: keep)
            if cost { phase.cost = CostBudgets(judgesTime: !sizesOnly) }
            if let callee { phase.hostile = callee }
            phase.learnRounds = max(0, learnRounds)
            do {
                let (findings, used) = try await phase.run(
                    for: max(remaining / (phases.count - index), total / phases.count), maxRequests: maxRequests,
                    stopAfter: stopAfter,
                    replay: replay.map { ($0, FuzzRequest.Session(rawValue: replayAs) ?? .none) })
                found += findings
                remaining -= used
            } catch {
                throw ExitCode.failure(2, "fuzz-live over \(name): \(error)")
            }
            if replay != nil { break }
        }
        if found > 0 { throw ExitCode(1) }
    }
}

/// Writes `line` to standard output at once (not buffered: a long run's findings show as they
/// happen, in a log file too).
func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    var written = 0
    while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        guard count > 0 else { return }
        written += count
    }
}

extension ExitCode {
    /// Prints `message` on standard error and gives `code`.
    static func failure(_ code: Int32, _ message: String) -> ExitCode {
        let line = Array("vt-fuzz-live: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        return ExitCode(code)
    }
}
