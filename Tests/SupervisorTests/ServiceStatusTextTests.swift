import Testing
import VerticalsContract
@testable import VerticalsSupervisor

/// The status text a state says, decided by the core: the words `status` shows, from the state
/// a service left and the one it entered.
@Suite struct ServiceStatusTextTests {
    typealias Machine = ServiceStateMachine

    static let backoff = Backoff(initial: .milliseconds(100), max: .seconds(2), multiplier: 2, resetAfter: .seconds(10))

    static func machine(
        _ state: Machine.State, restart: RestartPolicy = .always, budget: RestartBudget = RestartBudget()
    ) -> Machine {
        Machine(
            state: state, wanted: true, restart: restart, backoff: backoff, budget: budget, notifiesReady: true)
    }

    /// Feeds `event` to `machine`; the status text it says then, if the event changed it.
    static func said(
        _ machine: inout Machine, _ event: (inout Machine) -> [Machine.Action]
    ) -> String? {
        let before = machine.status
        _ = event(&machine)
        return machine.status == before ? nil : machine.statusText(service: "catalog")
    }

    @Test func waiting_saysWhatFor_andAgainOnlyWhenTheListChanges() {
        var machine = Self.machine(.stopped)
        _ = machine.startRequested(fresh: true)
        #expect(
            Self.said(&machine) { $0.dependenciesChecked(missing: ["db", "cache"]) }
                == "waiting for db, cache")
        #expect(Self.said(&machine) { $0.dependenciesChecked(missing: ["db", "cache"]) } == nil)
        #expect(Self.said(&machine) { $0.dependenciesChecked(missing: ["cache"]) } == "waiting for cache")
    }

    @Test func backoff_saysTheDelayTheExitDecided() {
        var machine = Self.machine(.ready)
        #expect(Self.said(&machine) { $0.exited(.init(success: false), at: .now) } == "restarting in 100 ms")
        #expect(machine.state == .backoff)
    }

    @Test func failed_saysWhyItStaysDown_andWhatToDoNext() {
        var never = Self.machine(.ready, restart: .never)
        #expect(Self.said(&never) { $0.exited(.init(success: false), at: .now) } == "not restarted (restart = never)")

        var refused = Self.machine(.ready)
        #expect(
            Self.said(&refused) { $0.exited(.init(success: false, restartCannotHelp: true), at: .now) }
                == "not restarted: exit status 78 says a restart cannot help; "
                + "fix the cause, then `svc-supervisor start catalog`")

        var spent = Self.machine(.ready, budget: RestartBudget(maxRestarts: 0, window: .seconds(60)))
        #expect(
            Self.said(&spent) { $0.exited(.init(success: false), at: .now) }
                == "restarted 0 times within 60 s; stays down until `svc-supervisor start catalog`")
    }

    @Test func stopping_saysSo_andStoppedClearsIt() {
        var machine = Self.machine(.ready)
        #expect(Self.said(&machine) { $0.stopRequested() } == "stopping")
        #expect(Self.said(&machine) { $0.exited(.init(success: true), at: .now) } == "")
    }

    @Test func anUpgradesRollBack_saysSo() {
        var machine = Self.machine(.upgrading(.finishing))
        #expect(Self.said(&machine) { $0.exited(.init(success: false), at: .now) } == "rolling back the upgrade")
        #expect(machine.state == .waiting)
    }
}
