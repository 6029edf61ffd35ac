import IOInterface
import VerticalsContract
import VerticalsWire

// MARK: Supervisor (the control interface, Contracts.control)

extension Supervisor.ServiceName {
    static func fixture(name: String = "identity") -> Self {
        .init(name: name)
    }

    static let minimal = Self(name: "")
}

extension Supervisor.ServiceStatus {
    static func fixture(
        name: String = "identity", state: Supervisor.ServiceState = .ready, pid: Int? = 4242,
        uptimeSeconds: Double? = 93.25, restarts: Int = 2, lastExit: String = "killed by signal 9",
        ready: Bool = true, statusText: String = "serving 5 operations",
        readySince: Timestamp? = Timestamp(microsecondsSinceEpoch: 1_795_426_200_250_000), restartsInWindow: Int = 1,
        backoffRemainingSeconds: Double? = 0.75, exitReason: Supervisor.ExitReason? = .liveness,
        rssBytes: Int? = 26_214_400
    ) -> Self {
        .init(
            name: name, state: state, pid: pid, uptimeSeconds: uptimeSeconds, restarts: restarts,
            lastExit: lastExit, ready: ready, statusText: statusText, readySince: readySince,
            restartsInWindow: restartsInWindow, backoffRemainingSeconds: backoffRemainingSeconds, exitReason: exitReason,
            rssBytes: rssBytes)
    }

    static let minimal = Self(
        name: "", state: .unknown("hibernating"), restarts: 0, lastExit: "", ready: false, statusText: "")
}

extension Supervisor.StatusList {
    static func fixture(
        services: [Supervisor.ServiceStatus] = [
            .fixture(), .fixture(name: "clinics", state: .backoff, pid: nil, uptimeSeconds: nil, ready: false),
        ]
    ) -> Self {
        .init(services: services)
    }

    static let minimal = Self(services: [])
}

extension Supervisor.ReloadResult {
    static func fixture(
        added: [String] = ["records"], removed: [String] = ["legacy"], changed: [String] = ["clinics"],
        unchanged: [String] = ["identity", "appointments"]
    ) -> Self {
        .init(added: added, removed: removed, changed: changed, unchanged: unchanged)
    }

    static let minimal = Self(added: [], removed: [], changed: [], unchanged: [])
}

extension Supervisor.LogsInput {
    static func fixture(name: String = "clinics", lines: Int = 20) -> Self {
        .init(name: name, lines: lines)
    }

    static let minimal = Self(name: "")
}

extension Supervisor.LogLine {
    static func fixture(text: String = "2026-11-23T09:30:00.123456Z stdout serving clinics on inherited fd 3") -> Self {
        .init(text: text)
    }

    static let minimal = Self(text: "")
}

extension Supervisor.RestoreInput {
    static func fixture(
        name: String = "clinics", file: String = "/var/backups/verticals/clinics-20261122T123000Z.sqlite"
    ) -> Self {
        .init(name: name, file: file)
    }

    static let minimal = Self(name: "", file: "")
}

extension Supervisor.RestoreResult {
    static func fixture(
        path: String = "/run/verticals/state/clinics/clinics.sqlite",
        kept: String? = "/run/verticals/state/clinics/clinics.before-restore-20261124T213000Z.sqlite"
    ) -> Self {
        .init(path: path, kept: kept)
    }

    static let minimal = Self(path: "")
}

extension Supervisor.UpgradeInput {
    static func fixture(name: String = "appointments", executable: String? = "/opt/verticals/2.1/svc-appointments") -> Self {
        .init(name: name, executable: executable)
    }

    static let minimal = Self(name: "")
}

extension Supervisor.UpgradeResult {
    static func fixture(
        name: String = "appointments", oldPid: Int = 4121, newPid: Int = 4388,
        executable: String = "/opt/verticals/2.1/svc-appointments", prepareSeconds: Double = 0.21,
        gapSeconds: Double = 0.083, drainSeconds: Double = 0.012,
        backup: String? = "/run/verticals/state/appointments/appointments.before-upgrade-20261125T101500Z.sqlite"
    ) -> Self {
        .init(
            name: name, oldPid: oldPid, newPid: newPid, executable: executable, prepareSeconds: prepareSeconds,
            gapSeconds: gapSeconds, drainSeconds: drainSeconds, backup: backup)
    }

    static let minimal = Self(name: "", oldPid: 0, newPid: 0, executable: "", prepareSeconds: 0, gapSeconds: 0, drainSeconds: 0)
}

extension Fixtures {
    static let supervisor: [Example] = [
        pair(Supervisor.ServiceName.fixture(), .minimal),
        pair(Supervisor.ServiceStatus.fixture(), .minimal),
        pair(Supervisor.StatusList.fixture(), .minimal),
        pair(Supervisor.ReloadResult.fixture(), .minimal),
        pair(Supervisor.LogsInput.fixture(), .minimal),
        pair(Supervisor.LogLine.fixture(), .minimal),
        pair(Supervisor.RestoreInput.fixture(), .minimal),
        pair(Supervisor.RestoreResult.fixture(), .minimal),
        pair(Supervisor.UpgradeInput.fixture(), .minimal),
        pair(Supervisor.UpgradeResult.fixture(), .minimal),
    ].flatMap { $0 }
}
