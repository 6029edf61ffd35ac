import Testing
@testable import VerticalsSupervisor

/// What a reload restarts: a changed entry, and (with allow-lists, as root) a service whose
/// callers changed, since its allow-list is fixed when it starts.
@Suite struct ReloadPlanTests {
    static let before = ServiceAccountsTests.manifestText

    /// `before`, with records added as a new caller of identity, and nothing else changed.
    static let after = before + """

        [services.records]
        executable = "/bin/true"
        depends_on = ["identity"]
        """

    static func plan(callersMatter: Bool) throws -> ReloadPlan {
        let old = try ServiceAccountsTests.manifest(before)
        let new = try ServiceAccountsTests.manifest(after)
        return ReloadPlan(
            from: old, oldOrder: try StartOrder.of(old), to: new, newOrder: try StartOrder.of(new),
            callersMatter: callersMatter)
    }

    @Test func aNewCaller_restartsItsCallee_whenRoutesAreEnforced() throws {
        let plan = try Self.plan(callersMatter: true)

        #expect(plan.added == ["records"])
        #expect(plan.changed == ["identity"], "identity's allow-list must now name records")
        #expect(plan.callersChanged == ["identity"])
        #expect(plan.unchanged == ["notifications", "appointments"])
    }

    @Test func aNewCaller_leavesItsCalleeRunning_whenNothingEnforcesRoutes() throws {
        let plan = try Self.plan(callersMatter: false)

        #expect(plan.changed.isEmpty && plan.callersChanged.isEmpty)
        #expect(plan.unchanged == ["identity", "notifications", "appointments"])
    }

    @Test func aChangedEntry_isChanged_andAnUntouchedManifest_changesNothing() throws {
        let old = try ServiceAccountsTests.manifest(Self.before)
        let edited = try ServiceAccountsTests.manifest(Self.before.replacingOccurrences(of: "user = \"booking\"", with: "user = \"booker\""))
        let order = try StartOrder.of(old)

        let same = ReloadPlan(from: old, oldOrder: order, to: old, newOrder: order, callersMatter: true)
        let changed = ReloadPlan(from: old, oldOrder: order, to: edited, newOrder: order, callersMatter: true)

        #expect(same.changed.isEmpty && same.added.isEmpty && same.removed.isEmpty)
        #expect(changed.changed == ["appointments"] && changed.callersChanged.isEmpty)
    }

    /// A caller that names one more operation of its callee: the callee's operation list is fixed
    /// at start too, so it restarts; the caller restarts because its own entry changed.
    @Test func aCallerGainingAnOperation_restartsItsCallee_whenRoutesAreEnforced() throws {
        let old = try ServiceAccountsTests.manifest(Self.before + "\n[services.records]\nexecutable = \"/bin/true\"\ndepends_on = [\"identity.authenticate\"]\n")
        let new = try ServiceAccountsTests.manifest(
            Self.before + "\n[services.records]\nexecutable = \"/bin/true\"\ndepends_on = [\"identity.authenticate\", \"identity.getUser\"]\n")
        let plan = ReloadPlan(
            from: old, oldOrder: try StartOrder.of(old), to: new, newOrder: try StartOrder.of(new), callersMatter: true)

        #expect(plan.callersChanged == ["identity"], "identity must now let records call getUser")
        #expect(plan.changed.contains("records") && plan.changed.contains("identity"))
    }
}
