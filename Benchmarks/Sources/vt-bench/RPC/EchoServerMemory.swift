import Foundation

extension RPCBenchmark {
    /// Each echo server's memory idle and holding 1,000 idle connections, ours against gRPC
    /// Swift 2's (as first set up, and tuned: NIO's shared group, a loop per vCPU) and the C
    /// echo's in the same rounds: private dirty (what is judged) and PSS, RSS beside. A connection is a plain Unix-socket connect that sends nothing, alike for all three
    /// (for gRPC, no HTTP/2 preface: what the server allocates on accepting one). Each round
    /// starts every server afresh, since memory a process once used stays resident.
    func runServerMemory(connections count: Int = 1_000) {
        var idle: [Stack: [ProcessStats.Memory]] = [:]
        var loaded: [Stack: [ProcessStats.Memory]] = [:]
        let stacks: [Stack] = [.c, .ours, .grpc, .grpcTuned]
        for round in 1...settings.rounds {
            progress("rpc server memory, \(count) idle connections, round \(round)/\(settings.rounds)")
            for stack in stacks {
                // Ours admits at most VERTICALS_MAX_CONNECTIONS (1,024 by default): room for the
                // connections and the listener probe, set through the declared setting.
                withServer(stack, cpu: 0, environment: ["VERTICALS_MAX_CONNECTIONS": "\(count + 64)"]) {
                    socketDirectory, pid in
                    // Past start-up's last allocations.
                    usleep(1_500_000)
                    idle[stack, default: []].append(Self.memory(pid, stack))
                    let path = Self.socketPath(stack, in: socketDirectory)
                    let baseline = IdleConnections.openDescriptors(pid)
                    let sockets = IdleConnections.connect(count, to: path, server: "the \(stack.rawValue) server")
                    // Every connection accepted before memory is read.
                    let deadline = ContinuousClock.now + .seconds(20)
                    while !IdleConnections.holds(pid, count, over: baseline), ContinuousClock.now < deadline {
                        usleep(20_000)
                    }
                    let held = IdleConnections.openDescriptors(pid) - baseline
                    guard held >= count else {
                        fail("the \(stack.rawValue) server holds \(held) of \(count) connections")
                    }
                    usleep(500_000)
                    loaded[stack, default: []].append(Self.memory(pid, stack))
                    for fd in sockets { close(fd) }
                }
            }
        }
        for stack in stacks {
            report.addMemory("rpc server memory", "\(stack.rawValue) server, idle", idle[stack]!)
            report.add(
                "rpc server memory", "  private dirty with \(count) idle connections", unit: "MiB",
                ours: loaded[stack]!.map { $0.privateDirty / 1024 }, baselineName: "idle",
                baseline: idle[stack]!.map { $0.privateDirty / 1024 }, ratioName: "with/idle")
            report.add(
                "rpc server memory", "  RSS with \(count) idle connections (information)", unit: "MiB",
                Summary(loaded[stack]!.map { $0.rss / 1024 }))
        }
        report.note("rpc server memory: \(nioExecutor.takeSummary())")
        let loadedDirty = { (stack: Stack) in loaded[stack]!.map { $0.privateDirty / 1024 } }
        report.add(
            "rpc server memory", "private dirty with \(count) connections, ours against \(Stack.grpc.rawValue)",
            unit: "MiB", ours: loadedDirty(.ours), baselineName: "gRPC", baseline: loadedDirty(.grpc),
            ratioName: "ours/gRPC")
        report.add(
            "rpc server memory", "private dirty with \(count) connections, ours against \(Stack.grpcTuned.rawValue)",
            unit: "MiB", ours: loadedDirty(.ours), baselineName: "gRPC tuned", baseline: loadedDirty(.grpcTuned),
            ratioName: "ours/gRPC")
        report.add(
            "rpc server memory", "private dirty with \(count) connections, ours against C", unit: "MiB",
            ours: loadedDirty(.ours), baselineName: "C", baseline: loadedDirty(.c), ratioName: "ours/C")
    }

    /// Where `stack`'s server listens in `directory`, as ``withServer(_:cpu:mode:environment:_:)`` starts it.
    static func socketPath(_ stack: Stack, in directory: String) -> String {
        switch stack {
        case .c: "\(directory)/c.sock"
        case .nio: "\(directory)/nio.sock"
        case .grpc, .grpcTuned, .grpcTunedUncoalesced: "\(directory)/grpc.sock"
        case .ours, .oursServer, .oursClient: "\(directory)/\(BenchEcho.name).sock"
        }
    }

    /// `pid`'s memory, or the run stops: the server ended during the round.
    private static func memory(_ pid: Int32, _ stack: Stack) -> ProcessStats.Memory {
        guard let memory = ProcessStats.memory(pid) else {
            fail("the \(stack.rawValue) server ended during the memory round")
        }
        return memory
    }
}
