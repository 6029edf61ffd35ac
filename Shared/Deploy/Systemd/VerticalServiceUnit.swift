import VerticalsContract
import VerticalsManifest

/// `verticals-<name>.service`: one vertical under systemd, each setting derived from its
/// manifest entry, in the sandbox of ``SystemdSandbox``.
///
/// | manifest | unit |
/// |---|---|
/// | `executable`, `args` | `ExecStart=` (a bare name is `<prefix>/bin/<name>`) |
/// | `env` | `Environment=` (plus `VERTICALS_SOCKET_DIR`) |
/// | `depends_on` | `Wants=` + `After=` the peer's `.socket` (its `.service` without one) |
/// | `readiness` | `Type=notify` or `Type=exec` |
/// | `restart` | `Restart=` (`never` is `no`); `RestartPreventExitStatus=78` (``DaemonExitStatus/restartCannotHelp``) |
/// | `backoff` | `RestartSec=` its `initial` (systemd 252 has no exponential backoff) |
/// | `budget` | `StartLimitBurst=` restarts + 1, `StartLimitIntervalSec=` window |
/// | `ready_timeout`, `stop_timeout`, `stop_signal`, `watchdog` | `TimeoutStartSec=`, `TimeoutStopSec=`, `KillSignal=`, `WatchdogSec=` |
/// | `socket` | `Requires=` + `After=` its own `.socket` |
/// | `start = "on-demand"` | the target wants only the `.socket` (``SuiteTargetUnit``): socket activation |
/// | `idle_exit` | `Environment=VERTICALS_IDLE_EXIT_SECONDS=`: the daemon exits 0, the `.socket` starts it again |
/// | `log_max_bytes` | — (the journal rotates: `SystemMaxUse=` in journald.conf) |
enum VerticalServiceUnit {
    /// The unit's text.
    static func text(_ spec: ServiceSpec, in manifest: Manifest, layout: SystemdLayout) -> String {
        let unitName = layout.unitName(spec.name)
        var file = UnitFile(header: SystemdExport.generatedHeader)

        var unit = UnitFile.Section(name: "Unit")
            .with("Description", "Verticals \(spec.name)")
            .with("PartOf", layout.target)
        if spec.socket {
            unit = unit.with("Requires", "\(unitName).socket").with("After", "\(unitName).socket")
        }
        for dependency in spec.dependsOn {
            let peer = manifest[dependency]
            let peerUnit = layout.unitName(dependency) + (peer?.socket == false ? ".service" : ".socket")
            unit.set(
                "Wants", peerUnit,
                comment: dependency == spec.dependsOn.first
                    ? [
                        "depends_on: the peers' sockets, not their services. Calls wait in a socket's backlog",
                        "while its service (re)starts, and a peer's restart does not restart this one.",
                    ] : [])
            unit.set("After", peerUnit)
        }
        let budget = spec.budget
        unit.set(
            "StartLimitIntervalSec", SystemdSyntax.timeSpan(budget.window),
            comment: [
                "budget: \(budget.maxRestarts) restarts in \(ManifestUnits.text(budget.window)), "
                    + "so \(budget.maxRestarts + 1) starts counting the first; past it the unit is failed."
            ])
        unit.set("StartLimitBurst", "\(budget.maxRestarts + 1)")
        file.append(unit)

        var service = UnitFile.Section(name: "Service")
            .with("Type", spec.readiness == .notify ? "notify" : "exec")
            .with("ExecStart", ([spec.executable] + spec.arguments).map(SystemdSyntax.commandWord).joined(separator: " "))
        for (key, value) in environment(spec, in: manifest, layout: layout) {
            service.set("Environment", SystemdSyntax.environmentAssignment(key, value))
        }
        let user = layout.userName(spec)
        service = service.with("User", user)
        // A user of the manifest's choosing may have another primary group: systemd takes it.
        if spec.user == nil { service = service.with("Group", user) }
        service = service.with("SupplementaryGroups", layout.group)
            .with("StateDirectory", "\(layout.stateRoot)/\(spec.name)")
            .with("StateDirectoryMode", "0700")
        service.set("Restart", restart(spec.restart))
        if spec.restart != .never {
            let backoff = spec.backoff
            service.set(
                "RestartSec", SystemdSyntax.timeSpan(backoff.initial),
                comment: [
                    "backoff: svc-supervisor waits \(ManifestUnits.text(backoff.initial)) × \(backoff.multiplier) "
                        + "per restart up to \(ManifestUnits.text(backoff.max));",
                    "systemd 252 has no exponential restart (RestartSteps= is v254), so the first delay, constant.",
                ])
            service.set(
                "RestartPreventExitStatus", "\(DaemonExitStatus.restartCannotHelp)",
                comment: [
                    "exit 78: a restart would be refused again (another process serves its store,",
                    "or the store is another vertical's, a newer build's or damaged).",
                ])
        }
        service = service.with("TimeoutStartSec", SystemdSyntax.timeSpan(spec.readyTimeout))
            .with("TimeoutStopSec", SystemdSyntax.timeSpan(spec.stopTimeout))
            .with("KillSignal", ManifestUnits.signalName(spec.stopSignal))
        if let watchdog = spec.watchdog {
            service.set("WatchdogSec", SystemdSyntax.timeSpan(watchdog))
        }
        for (index, setting) in SystemdSandbox.settings.enumerated() {
            service.set(
                setting.key, setting.value,
                comment: (index == 0 ? ["The sandbox (see SystemdSandbox.swift for what is left open, and why)."] : [])
                    + setting.comment)
        }
        file.append(service)
        return file.text
    }

    /// The manifest's `env`, sorted, and where the peers' sockets are. Under systemd every
    /// vertical runs as its own user, and a daemon admits only its own uid, root and the
    /// callers it is told of (ServiceKit's PeerAccess): the access variables come from
    /// ``ServiceAccounts/applyAccess(to:for:in:operatorGroup:identity:)``, as under
    /// svc-supervisor, with callers named by user (systemd resolves them).
    static func environment(_ spec: ServiceSpec, in manifest: Manifest, layout: SystemdLayout) -> [(String, String)] {
        var environment = spec.environment
        environment["VERTICALS_SOCKET_DIR"] = layout.socketDirectory
        ServiceAccounts.applyDependencies(to: &environment, for: spec)
        ServiceAccounts.applyCertificates(to: &environment, for: spec, in: manifest)
        ServiceAccounts.applyRoutes(to: &environment, for: spec, in: manifest)
        spec.applyIdleExit(to: &environment)
        ServiceAccounts.applyAccess(
            to: &environment, for: spec, in: manifest, operatorGroup: layout.group, identity: layout.userName)
        return environment.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    private static func restart(_ policy: RestartPolicy) -> String {
        switch policy {
        case .always: "always"
        case .onFailure: "on-failure"
        case .never: "no"
        }
    }
}
