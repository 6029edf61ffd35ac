import IOInterface
import VerticalsContract
import VerticalsWire

// MARK: Supervisor (the control interface, Contracts.control)

extension Supervisor.ServiceName {
    static let full = Self(name: "identity")
    static let minimal = Self(name: "")
}

extension Supervisor.ServiceStatus {
    static let full = Self(
        name: "identity", state: .ready, pid: 4242, uptimeSeconds: 93.25, restarts: 2, lastExit: "killed by signal 9",
        ready: true, statusText: "serving 5 operations",
        readySince: Timestamp(microsecondsSinceEpoch: 1_795_426_200_250_000),
        restartsInWindow: 1, backoffRemainingSeconds: 0.75, exitReason: .liveness, rssBytes: 26_214_400,
        receives: ["sessions", "password"], replica: .full)
    static let minimal = Self(
        name: "", state: .unknown("hibernating"), restarts: 0, lastExit: "", ready: false, statusText: "", receives: [])
}

extension Supervisor.ReplicaStatus {
    static let full = Self(
        state: .backoff, pid: 4343, runningSince: Timestamp(microsecondsSinceEpoch: 1_795_426_201_000_000),
        restarts: 1, lastExit: "exited with status 1", exitReason: .crash, backoffRemainingSeconds: 0.5)
    static let minimal = Self(state: .unknown("paused"), restarts: 0, lastExit: "")
}

extension Supervisor.StatusList {
    static let full = Self(services: [
        .full,
        Supervisor.ServiceStatus.full.with {
            $0.name = "clinics"
            $0.state = .backoff
            $0.pid = nil
            $0.uptimeSeconds = nil
            $0.ready = false
        },
    ])
    static let minimal = Self(services: [])
}

extension Supervisor.ReloadResult {
    static let full = Self(
        added: ["records"], removed: ["legacy"], changed: ["clinics"], unchanged: ["identity", "appointments"])
    static let minimal = Self(added: [], removed: [], changed: [], unchanged: [])
}

extension Supervisor.LogsInput {
    static let full = Self(name: "clinics", lines: 20)
    static let minimal = Self(name: "")
}

extension Supervisor.LogLine {
    static let full = Self(text: "2026-11-23T09:30:00.123456Z stdout serving clinics on inherited fd 3")
    static let minimal = Self(text: "")
}

extension Supervisor.RestoreInput {
    static let full = Self(
        name: "clinics", file: "/var/backups/verticals/clinics-20261122T123000Z.sqlite", fromReplica: true,
        at: Timestamp(microsecondsSinceEpoch: 1_795_782_600_000_000))
    static let minimal = Self(name: "")
}

extension Supervisor.RestoreResult {
    static let full = Self(
        path: "/run/verticals/state/clinics/clinics.sqlite",
        kept: "/run/verticals/state/clinics/clinics.before-restore-20261124T213000Z.sqlite")
    static let minimal = Self(path: "")
}

extension Supervisor.UpgradeInput {
    static let full = Self(name: "appointments", executable: "/opt/verticals/2.1/svc-appointments")
    static let minimal = Self(name: "")
}

extension Supervisor.UpgradeResult {
    static let full = Self(
        name: "appointments", oldPid: 4121, newPid: 4388, executable: "/opt/verticals/2.1/svc-appointments",
        prepareSeconds: 0.21, gapSeconds: 0.083, drainSeconds: 0.012,
        backup: "/run/verticals/state/appointments/appointments.before-upgrade-20261125T101500Z.sqlite")
    static let minimal = Self(
        name: "", oldPid: 0, newPid: 0, executable: "", prepareSeconds: 0, gapSeconds: 0, drainSeconds: 0)
}
