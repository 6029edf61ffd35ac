import Testing
import VerticalsContract
@testable import VerticalsSupervisor

/// What the machine records of a service's processes for `status`, from the events that bring
/// it: its last exit in words, when its running process started, and the words of a failure the
/// supervisor kills it for. Each fact, in every state: where the event records it and where it
/// leaves it alone.
@Suite struct ServiceStateMachineRecordTests {
    typealias Machine = ServiceStateMachine
    typealias State = Machine.State

    static let now = ContinuousClock.now
    static let later = now.advanced(by: .seconds(3))
    static let processes = Machine.UpgradeProcesses(oldPID: 41, newPID: 42, previousExecutable: "catalog")

    /// A machine in `state`, as the state × event table builds it.
    static func machine(in state: State) -> Machine {
        ServiceStateMachineTests.machine(in: state)
    }

    /// The states in which the service has a process of its own, whose exit it hears.
    static let withAProcess: Set<State> = [
        .starting, .ready, .stopping,
        .upgrading(.preparing), .upgrading(.handingOver), .upgrading(.newProcessFailed), .upgrading(.finishing),
    ]

    // MARK: Last exit

    @Test("An exit's words are its last exit where a process can end", arguments: State.all)
    func exit_recordsItsWords_whereAProcessEnds(_ state: State) {
        var machine = Self.machine(in: state)
        _ = machine.exited(.init(success: false, words: "exited with status 3: no such setting"), at: Self.now)
        #expect(machine.lastExit == (Self.withAProcess.contains(state) ? "exited with status 3: no such setting" : ""))
    }

    @Test func exit_withoutWords_keepsTheLastOnes() {
        var machine = Self.machine(in: .ready)
        _ = machine.exited(.init(success: false, words: "killed by signal 9 (SIGKILL)"), at: Self.now)
        _ = machine.startRequested(fresh: true)
        _ = machine.dependenciesChecked(missing: [])
        _ = machine.stopRequested() // stopped while its spawn waited: no process ran
        _ = machine.exited(.init(success: true), at: Self.now)
        #expect(machine.state == .stopped && machine.lastExit == "killed by signal 9 (SIGKILL)")
    }

    @Test("A failed spawn's reason is its last exit while it starts", arguments: State.all)
    func spawnFailed_recordsItsReason_whileStarting(_ state: State) {
        var machine = Self.machine(in: state)
        _ = machine.spawnFailed(at: Self.now, reason: "cannot start /nonexistent/svc: spawn: exec: ENOENT")
        #expect(
            machine.lastExit == (state == .starting ? "cannot start /nonexistent/svc: spawn: exec: ENOENT" : ""))
    }

    @Test("A strategy's stop is its last exit in any state", arguments: State.all)
    func stoppedWithPeer_recordsWhy(_ state: State) {
        var machine = Self.machine(in: state)
        _ = machine.stoppedWithPeer(reason: "stopped to restart with root (rest_for_one)")
        #expect(machine.lastExit == "stopped to restart with root (rest_for_one)")
    }

    // MARK: Start of the running process

    @Test("A spawn's instant is the running process's start while it starts", arguments: State.all)
    func spawned_recordsItsInstant_whileStarting(_ state: State) {
        var machine = Self.machine(in: state)
        _ = machine.spawned(at: Self.later)
        #expect(machine.startedAt == (state == .starting ? Self.later : nil))
    }

    @Test func exit_forgetsTheStart() {
        var machine = Self.machine(in: .starting)
        _ = machine.spawned(at: Self.now)
        _ = machine.ready(at: Self.now)
        _ = machine.exited(.init(success: false, words: "exited with status 1"), at: Self.later)
        #expect(machine.state == .backoff && machine.startedAt == nil)
    }

    @Test func promotion_countsFromTheNewProcesssStart() {
        var machine = Self.machine(in: .starting)
        _ = machine.spawned(at: Self.now)
        _ = machine.ready(at: Self.now)
        _ = machine.upgradeBegun(Self.processes, at: Self.later)
        #expect(machine.startedAt == Self.now) // the old process serves on
        _ = machine.exited(.init(success: true, words: "exited with status 0"), at: Self.later)
        #expect(machine.state == .upgrading(.finishing) && machine.startedAt == Self.later)
    }

    // MARK: A failure the supervisor kills it for

    @Test("The last failed liveness check allowed says why it is killed", arguments: State.all)
    func livenessFailedLast_recordsWhatTheCheckSaid(_ state: State) {
        var machine = Self.machine(in: state)
        _ = machine.livenessChecked(failure: "liveness: no answer to daemon.health within 300 ms", allowed: 1)
        let expected =
            state == .ready
            ? Machine.Failure(kind: .liveness, words: "liveness: no answer to daemon.health within 300 ms") : nil
        #expect(machine.pendingFailure == expected)
    }

    @Test func livenessFailed_withFailuresLeft_killsNothingYet_thenTheLastOnesWordsCount() {
        var machine = Self.machine(in: .ready)
        _ = machine.livenessChecked(failure: "liveness: first", allowed: 2)
        #expect(machine.pendingFailure == nil)
        _ = machine.livenessChecked(failure: "liveness: second", allowed: 2)
        #expect(machine.pendingFailure == Machine.Failure(kind: .liveness, words: "liveness: second"))
    }

    @Test("A missed watchdog and a ready timeout say how long was waited", arguments: State.all)
    func timeouts_recordTheirWords(_ state: State) {
        var watched = Self.machine(in: state)
        _ = watched.watchdogMissed(interval: .milliseconds(1_500))
        var starting = Self.machine(in: state)
        _ = starting.readyTimeoutElapsed(after: .milliseconds(300))
        let watchdog = Machine.Failure(kind: .watchdog, words: "watchdog: no WATCHDOG=1 within 1.5 s")
        let readyTimeout = Machine.Failure(kind: .readyTimeout, words: "not ready within 300 ms")
        #expect(watched.pendingFailure == (state == .ready ? watchdog : nil))
        #expect(starting.pendingFailure == (state == .starting ? readyTimeout : nil))
    }

    @Test func theKillsExit_saysTheFailure_andForgetsIt() {
        var machine = Self.machine(in: .ready)
        _ = machine.watchdogMissed(interval: .seconds(1))
        let exit = Machine.Exit(success: false, words: "killed by signal 9 (SIGKILL)")
        #expect(machine.words(of: exit) == "watchdog: no WATCHDOG=1 within 1 s")
        _ = machine.exited(exit, at: Self.now)
        #expect(machine.lastExit == "watchdog: no WATCHDOG=1 within 1 s" && machine.exitReason == .watchdog)
        #expect(machine.pendingFailure == nil)
    }

    /// The failure is the killed process's, in its case: a stop asked before its exit, or its
    /// late READY=1, keeps it, so its exit still counts as that failure.
    @Test func theKilledProcess_keepsItsFailure_throughAStopOrALateReady() {
        let killed = Machine.Exit(success: false, words: "killed by signal 9 (SIGKILL)")
        var stopped = Self.machine(in: .ready)
        _ = stopped.watchdogMissed(interval: .seconds(1))
        _ = stopped.stopRequested()
        #expect(stopped.pendingFailure?.kind == .watchdog)
        _ = stopped.exited(killed, at: Self.now)
        #expect(stopped.exitReason == .watchdog && stopped.pendingFailure == nil)

        var late = Self.machine(in: .starting)
        _ = late.readyTimeoutElapsed(after: .seconds(5))
        _ = late.ready(at: Self.now)
        #expect(late.state == .ready && late.refusal(of: .upgrade) == .notReady)
        _ = late.exited(killed, at: Self.later)
        #expect(late.exitReason == .readyTimeout && late.lastExit == "not ready within 5 s")
    }
}
