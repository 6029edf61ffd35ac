import Testing
import VerticalsContract
@testable import VerticalsSupervisorCommands

/// `status`'s REPLICA cell: the state of the Litestream that copies a service's store, with its
/// restarts, and why it does not run when it does not.
@Suite struct StatusReplicaTextTests {
    @Test func runningReplica_saysItsStateAndRestarts() {
        let replica = Supervisor.ReplicaStatus(state: .running, pid: 42, runningSince: nil, restarts: 2, lastExit: "x")
        #expect(StatusCommand.replicaText(replica) == "running, 2 restarts")
    }

    @Test func failedReplica_saysWhy() {
        let replica = Supervisor.ReplicaStatus(
            state: .failed, pid: nil, runningSince: nil, restarts: 0, lastExit: "no litestream program",
            exitReason: .startFailed)
        #expect(StatusCommand.replicaText(replica) == "failed: startFailed: no litestream program")
    }

    @Test func backingOffReplica_saysTheTimeLeft() {
        let replica = Supervisor.ReplicaStatus(
            state: .backoff, pid: nil, runningSince: nil, restarts: 1, lastExit: "killed by signal 9 (SIGKILL)",
            exitReason: .crash, backoffRemainingSeconds: 1.5)
        #expect(StatusCommand.replicaText(replica) == "backoff 1.5s, 1 restart: crash: killed by signal 9 (SIGKILL)")
    }

    @Test func serviceWithoutAReplica_showsADash() {
        let service = Supervisor.ServiceStatus(
            name: "ledger", state: .ready, pid: 1, uptimeSeconds: 1, restarts: 0, lastExit: "", ready: true,
            statusText: "", readySince: nil, receives: [])
        let header = StatusCommand.table([service]).first.map { "\($0)" } ?? ""
        #expect(header.contains("REPLICA"))
        #expect(StatusCommand.row(service)[8] == "-")
    }
}
