import Glibc
import VerticalsClient
import VerticalsContract
import VerticalsContractTesting
import VerticalsEventLoop
import VerticalsWire

extension LivePhase {
    /// `make fuzz-cost` over this phase's transport: real ids learnt, silent strangers held
    /// against every vertical, then the cost search (``CostSearch``) for `duration`, or one
    /// replayed frame measured. The strangers' findings, and the time the search took.
    func searchCosts(
        _ fuzzer: LiveFuzzer, suite: LiveSuite, client: ServiceClient, control: ServiceClient, budgets: CostBudgets,
        for duration: Duration, maxRequests: Int?, replay: (String, FuzzRequest.Session)?
    ) async throws -> (strangers: Int, used: Duration) {
        // The probes go on a loop of their own, so that the fuzzer's loop, busy with a long input,
        // does not delay them.
        let loop = try EventLoop(name: "vt-fuzz-cost")
        let prober = ServiceClient(loop: loop, sockets: suite.sockets, defaultTimeout: .seconds(10))
        defer {
            prober.close()
            loop.shutdown()
        }
        let probe = CostProbe(suite: suite, client: client, prober: prober, control: control)
        let search = CostSearch(fuzzer: fuzzer, probe: probe, budgets: budgets, seed: seed)
        fuzzer.command = "fuzz-cost"
        if let (text, session) = replay {
            let request = try Replay.request(
                text, as: session, contracts: fuzzer.contracts, sessions: fuzzer.sessions)
            await search.replay(request)
            return (0, .zero)
        }
        await fuzzer.learnIDs(rounds: learnRounds)
        let started = ContinuousClock.now
        await probe.refreshPids()
        if !kind.isHostile { await keepDescription(of: hostile, client: client) }
        var problems = 0
        for contract in fuzzer.contracts.contracts {
            guard
                let outcome = await Strangers.hold(
                    contract.name, endpoint: suite.sockets.endpoint(for: contract.name), probe: probe)
            else { continue }
            say(
                "fuzz-cost: \(contract.name): \(outcome.opened) silent strangers, \(outcome.held) descriptors held "
                    + "(cap \(outcome.cap))")
            if let problem = outcome.problem {
                problems += 1
                say("FINDING \(contract.name): \(problem)\n  again: make fuzz-cost FUZZ_TRANSPORT=\(transportName)")
            }
        }
        let searching = ContinuousClock.now
        say("fuzz-cost: strangers held in \(String(format1: (searching - started).seconds)) s; searching")
        await search.run(until: started + duration, maxRequests: maxRequests)
        say(search.report())
        return (problems, ContinuousClock.now - started)
    }

    /// Writes `callee`'s description as it answers it, in hex, where the hostile phase's
    /// ``HostileCallee`` reads it to make worse ones.
    func keepDescription(of callee: String, client: ServiceClient) async {
        guard
            let body = try? await client.callRaw(
                service: callee, operation: Daemon.describe.fullName, body: Empty().encodedBody(),
                timeout: .seconds(10))
        else { return }
        mkdir(findingsFolder, 0o755)
        guard let file = fopen("\(findingsFolder)/\(callee).description.hex", "w") else { return }
        fputs(Hex.encode(body) + "\n", file)
        fclose(file)
    }

    /// `unix`, `tcp`, `hostile` or `hostile-tcp`, as `FUZZ_TRANSPORT` takes it.
    var transportName: String {
        switch kind {
        case .unix: "unix"
        case .tcpWithMutualTLS: "tcp"
        case .hostileCallee: "hostile"
        case .hostileCalleeOverTLS: "hostile-tcp"
        }
    }
}
