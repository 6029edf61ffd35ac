// What an event says as it moves the service: to `status`'s followers, and to its replica.
extension ServiceStateMachine {
    /// Feeds one event (`event` calls one of the machine's functions) and returns its actions,
    /// after those that say what it entered: the state to `status`'s followers when the wire's
    /// state changed, or a waiting service's list of what it waits for did (unless a promotion
    /// among its actions says it once the new process is the service's own); then the state to
    /// the service's replica when it changed. The engine and the simulated world feed every event
    /// so. A spawn's `starting` is said here, before the spawn: the spawn may wait for work off
    /// the loop (its folders' walk, its first store's restore) or fail at once, and followers
    /// hear `starting` either way; its pid comes with the state it reaches next. A rollback's
    /// answer comes last, once the state it reached is said (``answerRollback()``).
    mutating func handle(_ event: (inout Self) -> [Action]) -> [Action] {
        let before = self
        let actions = event(&self)
        var says: [Action] = []
        let waitsAnew = state == .waiting && status != before.status
        let saysItself = actions.contains(.promoteUpgrade)
        if !saysItself, before.state.wire != state.wire || waitsAnew { says.append(.announceState) }
        if before.state != state { says.append(.tellReplica(entered: state)) }
        return says + actions + answerRollback()
    }
}
