import Testing
@testable import VerticalsSupervisor

/// What a reload restarts: a changed entry, and (with allow-lists, as root) a service whose
/// callers changed, since its allow-list is fixed when it starts.
@Suite struct ReloadPlanTests {
    static let before = ServiceAccountsTests.manifestText

    /// `before`, with archive added as a new caller of ledger, and nothing else changed.
    static let after =
        before + """

            [services.archive]
            executable = "/bin/true"
            depends_on = ["ledger"]
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

        #expect(plan.added == ["archive"])
        #expect(plan.changed == ["ledger"], "ledger's allow-list must now name archive")
        #expect(plan.callersChanged == ["ledger"])
        #expect(plan.unchanged == ["mailer", "orders"])
    }

    @Test func aNewCaller_leavesItsCalleeRunning_whenNothingEnforcesRoutes() throws {
        let plan = try Self.plan(callersMatter: false)

        #expect(plan.changed.isEmpty && plan.callersChanged.isEmpty)
        #expect(plan.unchanged == ["ledger", "mailer", "orders"])
    }

    @Test func aChangedEntry_isChanged_andAnUntouchedManifest_changesNothing() throws {
        let old = try ServiceAccountsTests.manifest(Self.before)
        let edited = try ServiceAccountsTests.manifest(
            Self.before.replacingOccurrences(of: "user = \"booking\"", with: "user = \"booker\""))
        let order = try StartOrder.of(old)

        let same = ReloadPlan(from: old, oldOrder: order, to: old, newOrder: order, callersMatter: true)
        let changed = ReloadPlan(from: old, oldOrder: order, to: edited, newOrder: order, callersMatter: true)

        #expect(same.changed.isEmpty && same.added.isEmpty && same.removed.isEmpty)
        #expect(changed.changed == ["orders"] && changed.callersChanged.isEmpty)
    }

    /// A caller that names one more operation of its callee: the callee's operation list is fixed
    /// at start too, so it restarts; the caller restarts because its own entry changed.
    @Test func aCallerGainingAnOperation_restartsItsCallee_whenRoutesAreEnforced() throws {
        let old = try ServiceAccountsTests.manifest(
            Self.before + "\n[services.archive]\nexecutable = \"/bin/true\"\ndepends_on = [\"ledger.balance\"]\n")
        let new = try ServiceAccountsTests.manifest(
            Self.before
                + "\n[services.archive]\nexecutable = \"/bin/true\"\ndepends_on = [\"ledger.balance\", \"ledger.statement\"]\n"
        )
        let plan = ReloadPlan(
            from: old, oldOrder: try StartOrder.of(old), to: new, newOrder: try StartOrder.of(new), callersMatter: true)

        #expect(plan.callersChanged == ["ledger"], "ledger must now let archive call statement")
        #expect(plan.changed.contains("archive") && plan.changed.contains("ledger"))
    }
}
