import Testing
import VerticalsContract

@testable import VerticalsClient

/// A client channel's connection without a socket, a timer or a call: every state × event pair
/// of ``PeerChannelStateMachine``, with the next state and what the channel does; the pairs the
/// channel never sends trap (in debug builds, where the tests run).
@Suite struct PeerChannelStateMachineTests {
    /// Stands in for a connection: the machine only compares them by identity.
    final class Link: Sendable {
        let name: String
        init(_ name: String) { self.name = name }
    }

    typealias Machine = PeerChannelStateMachine<Link>

    /// The connection a machine in ``Place/checking`` or ``Place/connected`` has.
    static let current = Link("current")
    /// A connection the machine does not have.
    static let other = Link("other")
    static let expected = CalleeContracts.Expected(
        operations: ["echo.echo"],
        description: Daemon.Description(name: "echo", summary: "", operations: [], messages: [], enums: []),
        fingerprint: "sha256:00")

    /// A state, without its data.
    enum Place: String, CaseIterable, Sendable, Codable {
        case idle, connecting, waitingToConnect, checking, judging, connected, closed
    }

    /// A state with its data, as a test compares it.
    enum Seen: Hashable, CustomStringConvertible {
        case idle, connecting(backoff: Duration), waitingToConnect(backoff: Duration)
        case checking(String), judging(String), connected(String), closed

        init(_ state: Machine.State) {
            switch state {
            case .idle: self = .idle
            case .connecting(let backoff): self = .connecting(backoff: backoff)
            case .waitingToConnect(let backoff): self = .waitingToConnect(backoff: backoff)
            case .checking(let link, let expected):
                self = .checking(
                    expected.fingerprint == PeerChannelStateMachineTests.expected.fingerprint ? link.name : "?")
            case .judging(let link): self = .judging(link.name)
            case .connected(let link): self = .connected(link.name)
            case .closed: self = .closed
            }
        }

        var description: String {
            switch self {
            case .idle: "idle"
            case .connecting(let backoff): "connecting(\(backoff))"
            case .waitingToConnect(let backoff): "waitingToConnect(\(backoff))"
            case .checking(let link): "checking(\(link))"
            case .judging(let link): "judging(\(link))"
            case .connected(let link): "connected(\(link))"
            case .closed: "closed"
            }
        }
    }

    /// What an event asked the channel to do, whichever function answered it.
    enum Did: Hashable {
        case nothing, connect, hold, write(String)
        case askContract, sendWaiting, refuseListener, close
        case retry(after: Duration), failCalls
        case judge, resend, giveUp
        case forgetConnection, closeConnection(String)
    }

    /// One event, with what the channel tells the machine of it.
    enum Event: String, CaseIterable, Sendable, Codable, CustomStringConvertible {
        case callQueued
        case connectedUnchecked, connectedChecked, connectedUntrusted
        case backlogFullWithCallsWaiting, backlogFullWithNoneWaiting, connectFailed
        case retryDueWithCallsWaiting, retryDueWithNoneWaiting
        case checkAnswered, checkAnsweredOnAnotherConnection
        case checkJudged, checkJudgedOnAnotherConnection
        case handedOverWithCallsPending, handedOverWithNonePending, handedOverOnAnotherConnection
        case callAnswered
        case connectionClosed, anotherConnectionClosed
        case closeRequested

        var description: String { rawValue }

        func send(to machine: inout Machine) -> Did {
            let current = PeerChannelStateMachineTests.current
            let other = PeerChannelStateMachineTests.other
            switch self {
            case .callQueued:
                switch machine.callQueued() {
                case .write(let link): return .write(link.name)
                case .hold: return .hold
                case .connect: return .connect
                }
            case .connectedUnchecked: return Self.did(machine.connected(current, trusted: true, expected: nil))
            case .connectedChecked:
                return Self.did(
                    machine.connected(current, trusted: true, expected: PeerChannelStateMachineTests.expected))
            case .connectedUntrusted:
                return Self.did(
                    machine.connected(current, trusted: false, expected: PeerChannelStateMachineTests.expected))
            case .backlogFullWithCallsWaiting:
                return Self.did(machine.connectFailed(backlogFull: true, callsWaiting: true))
            case .backlogFullWithNoneWaiting:
                return Self.did(machine.connectFailed(backlogFull: true, callsWaiting: false))
            case .connectFailed: return Self.did(machine.connectFailed(backlogFull: false, callsWaiting: true))
            case .retryDueWithCallsWaiting: return machine.retryDue(callsWaiting: true) ? .connect : .nothing
            case .retryDueWithNoneWaiting: return machine.retryDue(callsWaiting: false) ? .connect : .nothing
            case .checkAnswered: return machine.checkAnswered(on: current) == nil ? .nothing : .judge
            case .checkAnsweredOnAnotherConnection: return machine.checkAnswered(on: other) == nil ? .nothing : .judge
            case .checkJudged: return machine.checkJudged(on: current) ? .sendWaiting : .nothing
            case .checkJudgedOnAnotherConnection: return machine.checkJudged(on: other) ? .sendWaiting : .nothing
            case .handedOverWithCallsPending: return Self.did(machine.handedOver(current, callsPending: true))
            case .handedOverWithNonePending: return Self.did(machine.handedOver(current, callsPending: false))
            case .handedOverOnAnotherConnection: return Self.did(machine.handedOver(other, callsPending: true))
            case .callAnswered:
                machine.callAnswered()
                return .nothing
            case .connectionClosed: return machine.connectionClosed(current) ? .forgetConnection : .nothing
            case .anotherConnectionClosed: return machine.connectionClosed(other) ? .forgetConnection : .nothing
            case .closeRequested: return machine.closeRequested().map { .closeConnection($0.name) } ?? .nothing
            }
        }

        static func did(_ action: Machine.ConnectedAction) -> Did {
            switch action {
            case .askContract: .askContract
            case .sendWaiting: .sendWaiting
            case .refuseListener: .refuseListener
            case .close: .close
            }
        }

        static func did(_ action: Machine.ConnectFailedAction) -> Did {
            switch action {
            case .retry(let delay): .retry(after: delay)
            case .failCalls: .failCalls
            case .nothing: .nothing
            }
        }

        static func did(_ action: Machine.HandoverAction) -> Did {
            switch action {
            case .resend: .resend
            case .giveUp: .giveUp
            case .close: .close
            }
        }
    }

    /// A machine in `place`, reached by events: a call, then what its connect led to.
    static func machine(in place: Place) -> Machine {
        var machine = Machine()
        switch place {
        case .idle: break
        case .connecting: _ = machine.callQueued()
        case .waitingToConnect:
            _ = machine.callQueued()
            _ = machine.connectFailed(backlogFull: true, callsWaiting: true)
        case .checking:
            _ = machine.callQueued()
            _ = machine.connected(current, trusted: true, expected: expected)
        case .judging:
            _ = machine.callQueued()
            _ = machine.connected(current, trusted: true, expected: expected)
            _ = machine.checkAnswered(on: current)
        case .connected:
            _ = machine.callQueued()
            _ = machine.connected(current, trusted: true, expected: nil)
        case .closed: _ = machine.closeRequested()
        }
        return machine
    }

    /// What `place`'s machine is, with its data.
    static func seen(_ place: Place) -> Seen { Seen(machine(in: place).state) }

    /// What one event does in one state: the next state and what the channel does, or a trap.
    enum Cell: Equatable, CustomStringConvertible {
        case then(Seen, Did)
        case impossible

        var description: String {
            switch self {
            case .then(let seen, let did): "\(seen) \(did)"
            case .impossible: "a trap"
            }
        }
    }

    static let first = Machine.firstBackoff
    static let second = Machine.firstBackoff * 2

    /// The events a connect's result is: impossible with no connect in flight.
    static let connectResults: [Event] = [
        .connectedUnchecked, .connectedChecked, .connectedUntrusted, .backlogFullWithCallsWaiting,
        .backlogFullWithNoneWaiting, .connectFailed,
    ]

    /// Every pair that changes the state, asks for something or traps; every pair not listed
    /// must leave the state as it was and ask for nothing.
    static let table: [Event: [Place: Cell]] = {
        var table: [Event: [Place: Cell]] = [
            .callQueued: [
                .idle: .then(.connecting(backoff: first), .connect),
                .connecting: .then(.connecting(backoff: first), .hold),
                .waitingToConnect: .then(.waitingToConnect(backoff: second), .hold),
                .checking: .then(.checking("current"), .hold),
                .judging: .then(.judging("current"), .hold),
                .connected: .then(.connected("current"), .write("current")),
                .closed: .impossible,
            ],
            .connectedUnchecked: [
                .connecting: .then(.connected("current"), .sendWaiting), .closed: .then(.closed, .close),
            ],
            .connectedChecked: [
                .connecting: .then(.checking("current"), .askContract), .closed: .then(.closed, .close),
            ],
            .connectedUntrusted: [.connecting: .then(.idle, .refuseListener), .closed: .then(.closed, .close)],
            .backlogFullWithCallsWaiting: [
                .connecting: .then(.waitingToConnect(backoff: second), .retry(after: first))
            ],
            .backlogFullWithNoneWaiting: [.connecting: .then(.idle, .failCalls)],
            .connectFailed: [.connecting: .then(.idle, .failCalls)],
            .retryDueWithCallsWaiting: [.waitingToConnect: .then(.connecting(backoff: second), .connect)],
            .retryDueWithNoneWaiting: [.waitingToConnect: .then(.idle, .nothing)],
            .checkAnswered: [.checking: .then(.judging("current"), .judge)],
            .checkAnsweredOnAnotherConnection: [:],
            .checkJudged: [.judging: .then(.connected("current"), .sendWaiting)],
            .checkJudgedOnAnotherConnection: [:],
            .handedOverWithCallsPending: [
                .idle: .then(.idle, .close),
                .connecting: .then(.connecting(backoff: first), .close),
                .waitingToConnect: .then(.waitingToConnect(backoff: second), .close),
                .checking: .then(.connecting(backoff: first), .resend),
                .judging: .then(.connecting(backoff: first), .resend),
                .connected: .then(.connecting(backoff: first), .resend),
                .closed: .then(.closed, .close),
            ],
            .handedOverWithNonePending: [
                .idle: .then(.idle, .close),
                .connecting: .then(.connecting(backoff: first), .close),
                .waitingToConnect: .then(.waitingToConnect(backoff: second), .close),
                .checking: .then(.idle, .close),
                .judging: .then(.idle, .close),
                .connected: .then(.idle, .close),
                .closed: .then(.closed, .close),
            ],
            .handedOverOnAnotherConnection: Dictionary(
                uniqueKeysWithValues: Place.allCases.map { ($0, .then(seen($0), .close)) }),
            .callAnswered: [:],
            .connectionClosed: [
                .checking: .then(.idle, .forgetConnection), .judging: .then(.idle, .forgetConnection),
                .connected: .then(.idle, .forgetConnection),
            ],
            .anotherConnectionClosed: [:],
            .closeRequested: [
                .idle: .then(.closed, .nothing),
                .connecting: .then(.closed, .nothing),
                .waitingToConnect: .then(.closed, .nothing),
                .checking: .then(.closed, .closeConnection("current")),
                .judging: .then(.closed, .closeConnection("current")),
                .connected: .then(.closed, .closeConnection("current")),
            ],
        ]
        // With no connect in flight, a connect's result or a retry coming due is the channel's bug.
        for event in connectResults {
            for place in [Place.idle, .waitingToConnect, .checking, .judging, .connected] {
                table[event, default: [:]][place] = .impossible
            }
        }
        for event in [Event.retryDueWithCallsWaiting, .retryDueWithNoneWaiting] {
            for place in [Place.idle, .connecting, .checking, .judging, .connected] {
                table[event, default: [:]][place] = .impossible
            }
        }
        return table
    }()

    /// What the table says of `event` in `place`.
    static func cell(_ event: Event, _ place: Place) -> Cell {
        table[event]?[place] ?? .then(seen(place), .nothing)
    }

    @Test(arguments: Event.allCases)
    func everyState(_ event: Event) {
        for place in Place.allCases where Self.cell(event, place) != .impossible {
            var machine = Self.machine(in: place)
            let did = event.send(to: &machine)
            #expect(Cell.then(Seen(machine.state), did) == Self.cell(event, place), "\(event) in \(place)")
        }
    }

    /// An event and a state the channel never sends it in.
    struct Pair: Sendable, Codable, CustomTestStringConvertible {
        let event: Event
        let place: Place

        var testDescription: String { "\(event) in \(place)" }
    }

    static let impossiblePairs = Event.allCases.flatMap { event in
        Place.allCases.filter { cell(event, $0) == .impossible }.map { Pair(event: event, place: $0) }
    }

    @Test(
        .enabled(if: _isDebugAssertConfiguration(), "assertions trap only in debug builds"), arguments: impossiblePairs)
    func anImpossibleEvent_trapsInDebug(_ pair: Pair) async {
        await #expect(processExitsWith: .failure) { [pair] in
            var machine = PeerChannelStateMachineTests.machine(in: pair.place)
            _ = pair.event.send(to: &machine)
        }
    }

    @Test func theStatesTheTableSpeaksOf_areTheOnesTheEventsReach() {
        #expect(
            Place.allCases.map { Self.seen($0).description } == [
                "idle", "connecting(\(Self.first))", "waitingToConnect(\(Self.second))", "checking(current)",
                "judging(current)", "connected(current)", "closed",
            ])
        #expect(!Self.impossiblePairs.isEmpty)
        #expect(Self.machine(in: .connected).connectedLink === Self.current)
        #expect(Self.machine(in: .checking).connectedLink == nil, "a call is not cancelled before it is sent")
        #expect(Self.machine(in: .judging).connectedLink == nil, "nor while the callee's answer is judged")
        #expect(Place.allCases.filter { !Self.machine(in: $0).takesCalls } == [.closed])
    }

    @Test func aFullBacklog_isTriedAgain_afterAWaitThatDoubles_upToItsMost() {
        var machine = Self.machine(in: .connecting)
        var waits: [Duration] = []
        for _ in 0..<8 {
            guard case .retry(let wait) = machine.connectFailed(backlogFull: true, callsWaiting: true) else { break }
            waits.append(wait)
            let due = machine.retryDue(callsWaiting: true)
            #expect(due)
        }
        #expect(waits == [2, 4, 8, 16, 32, 64, 100, 100].map { Duration.milliseconds($0) })
        // Any other end of a connect starts the wait over.
        let connected = Event.did(machine.connected(Self.current, trusted: true, expected: nil))
        let handedOver = machine.handedOver(Self.current, callsPending: true)
        let again = machine.connectFailed(backlogFull: true, callsWaiting: true)
        #expect(connected == .sendWaiting)
        #expect(handedOver == .resend)
        #expect(again == .retry(after: Self.first))
    }

    @Test func aCalleeHandingBackEveryConnection_isSentTheCallsAgain_threeTimes_thenTheyFail() {
        var machine = Self.machine(in: .connected)
        var actions: [Machine.HandoverAction] = []
        for _ in 0..<5 {
            actions.append(machine.handedOver(Self.current, callsPending: true))
            if case .connecting = machine.state {
                _ = machine.connected(Self.current, trusted: true, expected: Self.expected)
            } else {
                _ = machine.callQueued()
                _ = machine.connected(Self.current, trusted: true, expected: Self.expected)
            }
        }
        #expect(actions == [.resend, .resend, .resend, .giveUp, .giveUp])
        #expect(Machine.handoverBudget == 3)
        // An answered call starts the budget over.
        machine.callAnswered()
        let afterAnAnswer = machine.handedOver(Self.current, callsPending: true)
        #expect(afterAnAnswer == .resend)
        #expect(machine.handoversInARow == 1)
    }

    @Test func aHandoverWithNothingPending_spendsNoBudget() {
        var machine = Self.machine(in: .connected)
        let action = machine.handedOver(Self.current, callsPending: false)
        #expect(action == .close)
        #expect(machine.handoversInARow == 0)
    }
}
