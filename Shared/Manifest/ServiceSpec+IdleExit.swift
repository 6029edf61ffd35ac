import VerticalsContract

extension ServiceSpec {
    /// Gives the daemon its `idle_exit` as `VERTICALS_IDLE_EXIT_SECONDS` (`HostConfiguration.idleExit`),
    /// unless its `env` set the variable: the same under svc-supervisor and in the systemd export.
    public func applyIdleExit(to environment: inout [String: String]) {
        guard let idleExit, environment[DaemonEnvironment.idleExitVariable] == nil else { return }
        environment[DaemonEnvironment.idleExitVariable] = Self.secondsText(idleExit)
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
