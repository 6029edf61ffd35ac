import VerticalsContract

extension ServiceSpec {
    /// Gives the daemon its `idle_exit` as `VERTICALS_IDLE_EXIT_SECONDS` (`HostConfiguration.idleExit`),
    /// and its floor ``idleExitMinimumUptime`` as `VERTICALS_IDLE_EXIT_MIN_UPTIME_SECONDS`, unless
    /// its `env` set them: the same under svc-supervisor and in the systemd export.
    public func applyIdleExit(to environment: inout [String: String]) {
        guard let idleExit else { return }
        if environment[DaemonEnvironment.idleExitVariable] == nil {
            environment[DaemonEnvironment.idleExitVariable] = Self.secondsText(idleExit)
        }
        if environment[DaemonEnvironment.idleExitMinimumUptimeVariable] == nil {
            environment[DaemonEnvironment.idleExitMinimumUptimeVariable] = Self.secondsText(idleExitMinimumUptime)
        }
    }

    /// How long the daemon stays up after each start before its idle exit may end it: the
    /// budget's window shared among its restarts (`60s / 5` = 12 s by default). Starting is not
    /// admission, so this is what bounds how often anyone can cycle an on-demand vertical: at most
    /// `budget.restarts` starts per `budget.window`. Under systemd that stays under the unit's
    /// `StartLimitBurst=` (restarts + 1), so idle cycles alone never put the unit, and with it
    /// its `.socket`, in a failed state.
    public var idleExitMinimumUptime: Duration {
        // Whole milliseconds, rounded up: the variable's text keeps no finer, and a floor a
        // fraction short would let one start too many into the window.
        let share = budget.window / max(1, budget.maxRestarts)
        let (seconds, attoseconds) = share.components
        let milliseconds = seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return .milliseconds(milliseconds)
    }

    /// Whole seconds as an integer (`"300"`), else with the milliseconds (`"1.5"`, `"0.25"`).
    static func secondsText(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
        let whole = milliseconds / 1_000
        let fraction = milliseconds % 1_000
        guard fraction != 0 else { return "\(whole)" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.last == "0" { digits.removeLast() }
        return "\(whole).\(digits)"
    }
}
