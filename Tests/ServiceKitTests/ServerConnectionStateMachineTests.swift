import Testing

@testable import VerticalsServiceKit

/// A server connection's lifecycle without a socket or a host: every state × event pair of
/// ``ServerConnectionStateMachine``, with the next state and the actions the connection performs.
@Suite struct ServerConnectionStateMachineTests {
    typealias Machine = ServerConnectionStateMachine
    typealias State = Machine.State
    typealias Actions = Machine.Actions

    /// One event, with the requests in flight it is told of.
    enum Event: String, CaseIterable, Sendable, CustomStringConvertible {
        case requestArrivedWithNoneInFlight, requestArrivedWithOneInFlight
        case drainWithNoneInFlight, drainWithOneRequestInFlight, drainWithOnlyAStream, drainWithAStreamAndARequest
        case lastRequestEnded, requestEndedWithOneLeft
        case closeRequested

        var description: String { rawValue }

        /// Feeds the event to `machine`; ``closeRequested`` answers no actions, and its Bool is
        /// checked against the state change.
        func send(to machine: inout Machine) -> (actions: Actions, accepted: Bool?) {
            switch self {
            case .requestArrivedWithNoneInFlight: (machine.requestArrived(inFlight: 0), nil)
            case .requestArrivedWithOneInFlight: (machine.requestArrived(inFlight: 1), nil)
            case .drainWithNoneInFlight: (machine.hostBeganDraining(inFlight: 0, streams: 0), nil)
            case .drainWithOneRequestInFlight: (machine.hostBeganDraining(inFlight: 1, streams: 0), nil)
            case .drainWithOnlyAStream: (machine.hostBeganDraining(inFlight: 1, streams: 1), nil)
            case .drainWithAStreamAndARequest: (machine.hostBeganDraining(inFlight: 2, streams: 1), nil)
            case .lastRequestEnded: (machine.requestEnded(remaining: 0), nil)
            case .requestEndedWithOneLeft: (machine.requestEnded(remaining: 1), nil)
            case .closeRequested: ([], machine.closeRequested())
            }
        }
    }

    /// A machine in `state`, reached by events.
    static func machine(in state: State) -> Machine {
        var machine = Machine(hostIsDraining: state == .draining || state == .closingWhileDraining)
        if state == .closing || state == .closingWhileDraining { _ = machine.closeRequested() }
        precondition(machine.state == state)
        return machine
    }

    typealias Outcome = MachineOutcome<State, Actions>

    /// Every pair that changes something or asks for something; every pair not listed must
    /// leave the state as it was and ask for nothing.
    static let table: [Event: [State: Outcome]] = [
        .requestArrivedWithNoneInFlight: [
            .draining: Outcome(state: .draining, actions: [.leaveUnread, .handOver]),
            .closing: Outcome(state: .closing, actions: .leaveUnread),
            .closingWhileDraining: Outcome(state: .closingWhileDraining, actions: .leaveUnread),
        ],
        .requestArrivedWithOneInFlight: [
            .draining: Outcome(state: .draining, actions: .leaveUnread),
            .closing: Outcome(state: .closing, actions: .leaveUnread),
            .closingWhileDraining: Outcome(state: .closingWhileDraining, actions: .leaveUnread),
        ],
        .drainWithNoneInFlight: [
            .serving: Outcome(state: .draining, actions: .handOver),
            .closing: Outcome(state: .closingWhileDraining, actions: []),
        ],
        .drainWithOneRequestInFlight: [
            .serving: Outcome(state: .draining, actions: []),
            .closing: Outcome(state: .closingWhileDraining, actions: []),
        ],
        .drainWithOnlyAStream: [
            .serving: Outcome(state: .draining, actions: [.endStreams, .handOver]),
            .closing: Outcome(state: .closingWhileDraining, actions: []),
        ],
        .drainWithAStreamAndARequest: [
            .serving: Outcome(state: .draining, actions: .endStreams),
            .closing: Outcome(state: .closingWhileDraining, actions: []),
        ],
        .lastRequestEnded: [
            .draining: Outcome(state: .draining, actions: [.handOver, .tellHost]),
            .closingWhileDraining: Outcome(state: .closingWhileDraining, actions: .tellHost),
        ],
        .requestEndedWithOneLeft: [
            .draining: Outcome(state: .draining, actions: .tellHost),
            .closingWhileDraining: Outcome(state: .closingWhileDraining, actions: .tellHost),
        ],
        .closeRequested: [
            .serving: Outcome(state: .closing, actions: []),
            .draining: Outcome(state: .closingWhileDraining, actions: []),
        ],
    ]

    @Test(arguments: Event.allCases)
    func everyState(_ event: Event) {
        for state in State.allCases {
            var machine = Self.machine(in: state)
            let (actions, accepted) = event.send(to: &machine)
            let expected = Self.table[event]?[state] ?? Outcome(state: state, actions: [])
            #expect(Outcome(state: machine.state, actions: actions) == expected, "\(event) in \(state)")
            if let accepted {
                #expect(accepted == (machine.state != state), "\(event) in \(state) answers whether it was taken")
            }
        }
    }

    @Test func answersAreWritten_untilTheLastFrame_andTheHostsDrainIsKnownInEveryState() {
        for state in State.allCases {
            let machine = Self.machine(in: state)
            #expect(machine.answers == (state == .serving || state == .draining), "\(state)")
            #expect(machine.isClosing == !machine.answers, "\(state)")
            #expect(machine.hostIsDraining == (state == .draining || state == .closingWhileDraining), "\(state)")
        }
    }

    @Test func aServingConnection_neverCountsWhatIsInFlight() {
        let machine = Self.machine(in: .serving)
        var counted = 0
        let arrival = machine.requestArrived(
            inFlight: {
                counted += 1; return 0
            }())
        let ended = machine.requestEnded(
            remaining: {
                counted += 1; return 0
            }())
        #expect(arrival.isEmpty && ended.isEmpty)
        #expect(counted == 0)
    }
}
