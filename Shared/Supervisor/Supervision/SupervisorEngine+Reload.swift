import VerticalsContract

// `reload` and SIGHUP: apply a new manifest, touching only what changed.
extension SupervisorEngine {
    /// Applies `newManifest`: starts added services, stops removed ones, restarts changed ones
    /// and leaves the rest running untouched (same pids). Answers once removed and changed
    /// services were stopped and everything was asked to start.
    public func apply(_ newManifest: Manifest) async throws -> Supervisor.ReloadResult {
        let endpoints = newManifest.endpoints
        let routes = newManifest
        let newManifest = newManifest.runnable // remote services are neither started nor stopped here
        let newOrder = try StartOrder.of(newManifest)
        // Users of added services are made now; one that cannot be had refuses the reload.
        try prepareUsers(newManifest)
        let plan = ReloadPlan(
            from: manifest, oldOrder: order, to: newManifest, newOrder: newOrder,
            callersMatter: configuration.serviceUsers != nil)
        for name in plan.removed + plan.changed.reversed() {
            _ = try? await stopService(name)
        }
        for name in plan.removed {
            guard let unit = units.removeValue(forKey: name) else { continue }
            releaseSocket(unit)
            for timer in unit.timers { timer.close() }
            unit.output?.drain()
            unit.output?.close()
            closeReplica(unit)
            unit.log.note("removed from the manifest")
            unit.log.close()
        }
        manifest = newManifest
        writeSecretRecipients()
        peerEndpoints = endpoints
        self.routes = routes
        order = (try? StartOrder.of(newManifest)) ?? newManifest.services.map(\.name)
        for name in plan.changed {
            guard let unit = units[name], let spec = newManifest[name] else { continue }
            if plan.callersChanged.contains(name) {
                unit.log.note("its callers changed in the manifest (depends_on): restarting with the new allow-list")
            }
            if !spec.socket { releaseSocket(unit) }
            unit.spec = spec // and the machine's policy with it
            updateReplica(unit)
            unit.log.maxBytes = spec.logMaxBytes
            unit.log.rotation = spec.logRotation
            unit.log.note("changed in the manifest: restarting")
        }
        for name in plan.added {
            guard let spec = newManifest[name] else { continue }
            units[name] = makeUnit(spec)
        }
        for name in order where plan.added.contains(name) || plan.changed.contains(name) {
            if let unit = units[name] { activate(unit) }
        }
        return Supervisor.ReloadResult(
            added: plan.added, removed: plan.removed, changed: plan.changed, unchanged: plan.unchanged)
    }
}

/// What a reload does, by service name.
struct ReloadPlan: Sendable, Equatable {
    var added: [String]
    var removed: [String]
    /// Restarted: their manifest entry changed, or (``callersChanged``) the verticals that declare
    /// them in `depends_on` did.
    var changed: [String]
    var unchanged: [String]
    /// Those of ``changed`` whose entry is the same but whose callers, or the operations a caller
    /// may call, differ: their allow-lists (``ServiceAccounts/applyAccess(to:for:in:operatorGroup:identity:)``,
    /// ``ServiceAccounts/applyRoutes(to:for:in:)``) are fixed at start, so a new caller or
    /// operation would be refused until they restart.
    var callersChanged: [String] = []

    /// The plan from `old` (started in `oldOrder`) to `new`. `callersMatter`: services run with
    /// allow-lists (as root), so a service whose callers changed restarts too.
    init(from old: Manifest, oldOrder: [String], to new: Manifest, newOrder: [String], callersMatter: Bool) {
        let oldNames = Set(old.services.map(\.name))
        let newNames = Set(new.services.map(\.name))
        // The callers, and the operations each may call (`VERTICALS_ALLOWED_OPERATIONS`).
        func callers(_ name: String, _ manifest: Manifest) -> [String] {
            ServiceAccounts.allowedOperations(of: name, in: manifest).sorted()
        }
        let kept = newOrder.filter { oldNames.contains($0) }
        let callersChanged =
            callersMatter
            ? kept.filter { old[$0] == new[$0] && callers($0, old) != callers($0, new) } : []
        let changed = kept.filter { old[$0] != new[$0] || callersChanged.contains($0) }
        self.added = newOrder.filter { !oldNames.contains($0) }
        self.removed = oldOrder.reversed().filter { !newNames.contains($0) }
        self.changed = changed
        self.unchanged = kept.filter { !changed.contains($0) }
        self.callersChanged = callersChanged
    }
}
