import Testing

@testable import VerticalsServiceKit

/// A host's stop without a loop, a connection or a timer: every state × event pair of
/// ``HostStopStateMachine``, for the accepting host and for a shard, with the next state and the
/// actions the host performs.
@Suite struct HostStopStateMachineTests {
    typealias Machine = HostStopStateMachine
    typealias State = Machine.State
    typealias Actions = Machine.Actions

    enum Event: String, CaseIterable, Sendable, CustomStringConvertible {
        case stopRequested, drainRequested, requestFinished
        case lastConnectionClosed, connectionClosedWithOneLeft
        case drainEndedWithNoConnection, drainEndedWithConnections
        case shardDrained

        var description: String { rawValue }

        func send(to machine: inout Machine) -> Actions {
            switch self {
            case .stopRequested: machine.stopRequested()
            case .drainRequested: machine.drainRequested()
            case .requestFinished: machine.requestFinished()
            case .lastConnectionClosed: machine.connectionClosed(remaining: 0)
            case .connectionClosedWithOneLeft: machine.connectionClosed(remaining: 1)
            case .drainEndedWithNoConnection: machine.drainEnded(connectionsOpen: 0)
            case .drainEndedWithConnections: machine.drainEnded(connectionsOpen: 2)
            case .shardDrained: machine.shardDrained()
            }
        }
    }

    /// A machine in `state`, reached by events, with one connection open until drained; the
    /// accepting host told `shards` shards to drain as it began.
    static func machine(in state: State, isShard: Bool = false, shards: Int = 0) -> Machine {
        var machine = Machine(isShard: isShard)
        guard state != .serving else { return machine }
        _ = machine.drainRequested()
        machine.shardsToldToDrain(shards)
        guard state != .draining else { return machine }
        _ = machine.drainEnded(connectionsOpen: 1)
        guard state != .closing else { return machine }
        _ = machine.connectionClosed(remaining: 0)
        precondition(machine.state == state)
        return machine
    }

    typealias Outcome = MachineOutcome<State, Actions>

    /// The accepting host with no shard. Every pair not listed leaves the state and asks nothing.
    static let accepting: [Event: [State: Outcome]] = [
        .stopRequested: [
            .serving: Outcome(state: .draining, actions: [.startDrain, .finishIfIdle]),
            .draining: Outcome(state: .draining, actions: .finishIfIdle),
            .drained: Outcome(state: .drained, actions: .resumeStopWaiters),
        ],
        .drainRequested: [
            .serving: Outcome(state: .draining, actions: [.startDrain, .finishIfIdle]),
            .draining: Outcome(state: .draining, actions: .finishIfIdle),
        ],
        .requestFinished: [.draining: Outcome(state: .draining, actions: .finishIfIdle)],
        .lastConnectionClosed: [
            .draining: Outcome(state: .draining, actions: .finishIfIdle),
            .closing: Outcome(state: .drained, actions: [.finishStop, .resumeStopWaiters]),
        ],
        .connectionClosedWithOneLeft: [.draining: Outcome(state: .draining, actions: .finishIfIdle)],
        .drainEndedWithNoConnection: [
            .draining: Outcome(state: .drained, actions: [.finishDrain, .finishStop, .resumeStopWaiters])
        ],
        .drainEndedWithConnections: [.draining: Outcome(state: .closing, actions: .finishDrain)],
        .shardDrained: [:], // no shard was told
    ]

    /// Where a shard differs: its drained loop tells the accepting host.
    static let shard: [Event: [State: Outcome]] = accepting.merging([
        .lastConnectionClosed: [
            .draining: Outcome(state: .draining, actions: .finishIfIdle),
            .closing: Outcome(state: .drained, actions: .tellAcceptingHost),
        ],
        .drainEndedWithNoConnection: [
            .draining: Outcome(state: .drained, actions: [.finishDrain, .tellAcceptingHost])
        ],
    ]) { _, shard in shard }

    static func check(_ table: [Event: [State: Outcome]], _ event: Event, isShard: Bool) {
        for state in State.allCases {
            var machine = machine(in: state, isShard: isShard)
            let actions = event.send(to: &machine)
            let expected = table[event]?[state] ?? Outcome(state: state, actions: [])
            #expect(
                Outcome(state: machine.state, actions: actions) == expected,
                "\(isShard ? "shard" : "accepting host"): \(event) in \(state)")
            #expect(machine.isDraining == (machine.state != .serving))
        }
    }

    @Test(arguments: Event.allCases)
    func acceptingHost(_ event: Event) {
        Self.check(Self.accepting, event, isShard: false)
    }

    @Test(arguments: Event.allCases)
    func shard(_ event: Event) {
        Self.check(Self.shard, event, isShard: true)
    }

    @Test func theAcceptingHostsStop_waitsForItsLastShard() {
        var machine = Self.machine(in: .closing, shards: 2)
        var actions = machine.connectionClosed(remaining: 0)
        #expect(machine.state == .drained && actions.isEmpty) // two shards still drain
        actions = machine.stopRequested()
        #expect(actions.isEmpty) // a stop asked now waits too
        actions = machine.shardDrained()
        #expect(actions.isEmpty)
        actions = machine.shardDrained()
        #expect(actions == [.finishStop, .resumeStopWaiters])
        actions = machine.shardDrained()
        #expect(actions.isEmpty && machine.shardsDraining == 0) // one too many is ignored
    }

    @Test func aShardThatDrainsFirst_doesNotEndTheStopOfAHostStillServing() {
        var machine = Self.machine(in: .draining, shards: 1)
        let actions = machine.shardDrained()
        #expect(actions.isEmpty && machine.state == .draining)
    }
}
