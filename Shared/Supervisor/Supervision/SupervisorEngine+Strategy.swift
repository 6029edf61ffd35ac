import VerticalsContract

// Restart strategies after Erlang/OTP: which other services go down and come back when one
// restarts, and in what order. All on the loop thread.
extension SupervisorEngine {
    /// The running services that restart with `unit`, in start order: its transitive
    /// dependents (`rest_for_one`), the other members of its group (`one_for_all`), or none.
    func strategyPeers(of unit: ServiceUnit) -> [ServiceUnit] {
        let names: Set<String>
        switch unit.spec.strategy {
        case .oneForOne:
            return []
        case .restForOne:
            names = dependents(of: unit.spec.name)
        case .oneForAll:
            guard let group = unit.spec.group else { return [] }
            names = Set(units.values.filter { $0.spec.group == group && $0 !== unit }.map(\.spec.name))
        }
        // An idle (on-demand) peer has no process to restart: its next caller starts it anyway.
        return order.filter(names.contains).compactMap { units[$0] }.filter { $0.wanted && $0.state != .idle }
    }

    /// Everything that depends on `name`, directly or through others.
    func dependents(of name: String) -> Set<String> {
        var found: Set<String> = []
        var frontier = [name]
        while let next = frontier.popLast() {
            for unit in units.values where unit.spec.dependsOn.contains(next) && !found.contains(unit.spec.name) {
                found.insert(unit.spec.name)
                frontier.append(unit.spec.name)
            }
        }
        return found
    }

    /// Stops `peers` one at a time in reverse start order, marks each to come back in start
    /// order, then calls `done` (which lets `failed` start again).
    ///
    /// `rest_for_one` needs no more than `depends_on` for the order back: each dependent waits
    /// for what it depends on. `one_for_all` members need not depend on each other, so each
    /// (the failed one included) is held until every member before it in start order is ready.
    func restartPeers(_ peers: [ServiceUnit], with failed: ServiceUnit, then done: @escaping () -> Void) {
        let reason = "stopped to restart with \(failed.spec.name) (\(failed.spec.strategy.rawValue))"
        if failed.spec.strategy == .oneForAll {
            let members = Set(([failed] + peers).map(\.spec.name))
            let inOrder = order.filter(members.contains)
            for (index, name) in inOrder.enumerated() {
                if let unit = units[name] { transition(unit) { $0.heldUntilReady(inOrder[..<index]) } }
            }
        }
        stopOneByOne(peers.reversed()[...], reason: reason) {
            for peer in peers {
                self.transition(peer) { $0.restartRequestedWithPeer() }
            }
            done()
        }
    }

    private func stopOneByOne(_ pending: ArraySlice<ServiceUnit>, reason: String, then done: @escaping () -> Void) {
        guard let next = pending.first else {
            done()
            return
        }
        next.log.note(reason)
        stop(next) {
            self.transition(next) { $0.stoppedWithPeer(reason: reason) }
            self.stopOneByOne(pending.dropFirst(), reason: reason, then: done)
        }
    }
}
