/// What one event led a state machine to in a table test: the next state and the actions it
/// asked for.
struct MachineOutcome<State: Hashable & Sendable, Actions: Hashable & Sendable>: Sendable, Equatable,
    CustomStringConvertible
{
    let state: State
    let actions: Actions

    var description: String { "\(state) \(actions)" }
}
