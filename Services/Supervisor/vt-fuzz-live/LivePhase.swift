import Glibc
import VerticalsClient
import VerticalsSupervisorCommands
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsSupervisorClient
import VerticalsWire

/// One suite fuzzed over one transport: started, learnt, sessions opened, fuzzed (or one frame
/// replayed), stopped. Over Unix sockets the manifest runs as it is; over TCP each service gets
/// a loopback endpoint and certificates from `svc-supervisor certs`, and the fuzzer calls as the
/// operator over mutual TLS.
struct LivePhase {
    enum Kind: String {
        case unix = "Unix sockets"
        case tcpWithMutualTLS = "TCP with mutual TLS"
        /// Unix sockets, one callee replaced by ``HostileCallee`` (`make fuzz-cost` only).
        case hostileCallee = "Unix sockets with a hostile callee"
        /// TCP with mutual TLS, one callee replaced by ``HostileCallee`` (`make fuzz-cost` only).
        case hostileCalleeOverTLS = "TCP with mutual TLS with a hostile callee"

        /// Whether every service is on a loopback TCP endpoint with certificates.
        var isTCP: Bool { self == .tcpWithMutualTLS || self == .hostileCalleeOverTLS }
        /// Whether one callee is replaced by ``HostileCallee``.
        var isHostile: Bool { self == .hostileCallee || self == .hostileCalleeOverTLS }
    }

    let kind: Kind
    let manifest: String
    let seed: UInt64
    let findingsFolder: String
    let keep: Bool
    /// The cost search's budgets (`make fuzz-cost`), instead of the rules of `make fuzz-live`.
    var cost: CostBudgets? = nil
    /// Rounds of plausible requests to every operation before the cost search, to learn real ids.
    var learnRounds = 1
    /// The callee a hostile program replaces in the ``Kind/hostileCallee`` phase.
    var hostile = ""

    /// Runs the phase, fuzzing for `duration` once the suite is learnt; the number of findings
    /// and the time fuzzing took.
    func run(
        for duration: Duration, maxRequests: Int?, stopAfter: Int?, replay: (String, FuzzRequest.Session)?
    ) async throws -> (findings: Int, fuzzing: Duration) {
        let bin = ProgramPaths.ownDirectory()
        let folder = try LiveSuite.temporaryFolder()
        var endpoints: [String: SocketEndpoint] = [:]
        var tls: TLSFiles?
        var manifest = self.manifest
        if kind.isTCP {
            (manifest, endpoints) = try TCPManifest.write(from: self.manifest, into: folder, bin: bin)
            tls = TLSFiles(
                certificate: "\(folder)/certs/operator/tls.crt", key: "\(folder)/certs/operator/tls.key",
                authority: "\(folder)/certs/operator/ca.crt")
        }
        if kind.isHostile {
            // Over TCP, the TCP manifest with the callee replaced: the same certificates serve it.
            manifest = try HostileManifest.write(
                from: manifest, into: folder, bin: bin, callee: hostile,
                description: "\(findingsFolder)/\(hostile).description.hex")
        }
        let suite = try LiveSuite.start(
            manifest: manifest, folder: folder, binDirectory: bin, endpoints: endpoints, tls: tls)
        let loop = try EventLoop(name: "vt-fuzz-live")
        let client = ServiceClient(loop: loop, sockets: suite.sockets, defaultTimeout: .seconds(10))
        let control = suite.controlClient(loop: loop)
        var found = 0
        var fuzzing = Duration.zero
        defer {
            client.close()
            control.close()
            loop.shutdown()
        }
        say("fuzz-live: \(kind.rawValue): suite in \(folder) (\(manifest))")
        guard await suite.waitUntilReady(control, timeout: .seconds(90)) else {
            await suite.stop(control)
            throw LiveSuite.StartError(
                description: "the suite never became ready; its supervisor's output is \(folder)/supervisor.log")
        }
        do {
            // A hostile callee is not fuzzed: its callers are.
            let names = (await suite.status(control) ?? []).map(\.name).filter {
                !kind.isHostile || $0 != hostile
            }
            let contracts = try await SuiteContracts.learn(names, client: client)
            let sessions = await Sessions.open(contracts, client: client, seed: seed)
            let fuzzer = LiveFuzzer(
                suite: suite, client: client, control: control, contracts: contracts, sessions: sessions, seed: seed,
                transport: transportName, findingsFolder: findingsFolder, log: say)
            await fuzzer.baseline()
            var started = ContinuousClock.now
            if let budgets = cost {
                let (strangers, used) = try await searchCosts(
                    fuzzer, suite: suite, client: client, control: control, budgets: budgets, for: duration,
                    maxRequests: maxRequests, replay: replay)
                started = ContinuousClock.now - used
                found += strangers
            } else if let (text, session) = replay {
                try await Replay.send(text, as: session, fuzzer: fuzzer, contracts: contracts, sessions: sessions)
            } else {
                await fuzzer.learnIDs(rounds: 2)
                // Fuzzing time starts now; the sweep gets up to half of it, random inputs the rest.
                started = ContinuousClock.now
                let deadline = started + duration
                await fuzzer.sweep(
                    until: ContinuousClock.now + duration / 2, ranks: LiveFuzzer.sweepRanks, maxRequests: maxRequests,
                    stopAfter: stopAfter)
                await fuzzer.fuzz(until: deadline, maxRequests: maxRequests, stopAfter: stopAfter)
            }
            fuzzing = ContinuousClock.now - started
            say("fuzz-live: \(kind.rawValue)")
            if cost == nil { say(fuzzer.summary(elapsed: ContinuousClock.now - started)) }
            found += fuzzer.findings.count
        } catch {
            await suite.stop(control)
            throw error
        }
        await suite.stop(control)
        if found > 0 || keep {
            say("  the run folder is kept (logs in \(folder)/run/logs): \(folder)")
        } else {
            LiveSuite.remove(folder)
        }
        return (found, fuzzing)
    }
}

/// The manifest again, with every service on a loopback TCP endpoint and certificates from
/// `svc-supervisor certs` (written beside it): the suite as it runs split across hosts.
enum TCPManifest {
    /// Writes `folder/suite.toml` and `folder/certs`; the manifest's path and each service's endpoint.
    static func write(from manifest: String, into folder: String, bin: String) throws -> (
        String, [String: SocketEndpoint]
    ) {
        guard let text = WholeFile.read(manifest) else {
            throw LiveSuite.StartError(description: "cannot read \(manifest)")
        }
        var lines: [String] = []
        var endpoints: [String: SocketEndpoint] = [:]
        var sawDefaults = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append(String(line))
            let trimmed = line.trimmingPrefix(while: { $0 == " " })
            if trimmed.hasPrefix("[defaults]") {
                sawDefaults = true
                lines.append(#"certificates = "certs""#)
            } else if trimmed.hasPrefix("[services."), let end = trimmed.firstIndex(of: "]") {
                let name = String(trimmed[trimmed.index(trimmed.startIndex, offsetBy: 10)..<end])
                let port = try freePort()
                endpoints[SocketDirectory.endpointKey(for: name)] = .tcp(host: "127.0.0.1", port: port)
                lines.append("endpoint = \"tcp:127.0.0.1:\(port)\"")
            }
        }
        if !sawDefaults { lines.insert("[defaults]\ncertificates = \"certs\"", at: 0) }
        // The manifest's folder is where relative executables are found: bare names (beside
        // svc-supervisor) and absolute paths work from the copy, relative ones are made absolute.
        let copy = "\(folder)/suite.toml"
        guard let file = fopen(copy, "w") else { throw LiveSuite.StartError(description: "cannot write \(copy)") }
        fputs(lines.joined(separator: "\n"), file)
        fclose(file)
        let pid = try LiveSuite.spawn(
            bin + "/svc-supervisor", ["certs", "\(folder)/certs", "--manifest", copy],
            environment: ProcessEnvironment.current, output: "\(folder)/certs.log")
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        guard status == 0 else {
            throw LiveSuite.StartError(description: "svc-supervisor certs failed; its output is \(folder)/certs.log")
        }
        return (copy, endpoints)
    }

    /// A loopback TCP port nothing listens on now.
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LiveSuite.StartError(description: "socket: \(errnoText())") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { throw LiveSuite.StartError(description: "bind: \(errnoText())") }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }
}
