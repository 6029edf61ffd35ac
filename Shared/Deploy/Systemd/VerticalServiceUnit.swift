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
/// | `idle_exit` | `Environment=VERTICALS_IDLE_EXIT_SECONDS=` and `VERTICALS_IDLE_EXIT_MIN_UPTIME_SECONDS=` (its floor): the daemon exits 0, the `.socket` starts it again |
/// | `log_max_bytes` | — (the journal rotates: `SystemMaxUse=` in journald.conf) |
/// | `endpoint` of a peer in `depends_on` | `Environment=VERTICALS_ENDPOINT_<PEER>=`; no `Wants=` when it runs on another host |
/// | `limits` | `MemoryMax=`, `CPUQuota=` (percent of one CPU), `TasksMax=`, `LimitNOFILE=`, `LimitDATA=`, `LimitCORE=`, `LimitCPU=`, `Nice=` |
/// | `replica` | `Wants=` its `-replica.service` (``ReplicaServiceUnit``), `Requires=` + `After=` its `-restore.service` (``ReplicaRestoreUnit``), `VERTICALS_STORE_REPLICA=litestream` |
/// | `certificates` | `LoadCredential=` of its three files, `VERTICALS_TLS_*` = `%d/…` (the credentials folder) |
/// | `endpoint`, peers' endpoints, `OTEL_EXPORTER_OTLP_ENDPOINT` | the network of ``SystemdNetwork`` |
enum VerticalServiceUnit {
    /// The manifest's `limits` as the unit's settings: what vt-exec and the supervisor's cgroups
    /// apply under `svc-supervisor up`, systemd applies here, so no host grants a vertical more.
    static func limits(_ limits: ResourceLimits) -> [(String, String)] {
        var settings: [(String, String)] = []
        if let bytes = limits.memoryBytes { settings.append(("MemoryMax", "\(bytes)")) }
        if let percent = limits.cpuPercent { settings.append(("CPUQuota", "\(percent)%")) }
        if let weight = limits.cpuWeight { settings.append(("CPUWeight", "\(weight)")) }
        if let tasks = limits.tasks { settings.append(("TasksMax", "\(tasks)")) }
        if let files = limits.openFiles { settings.append(("LimitNOFILE", "\(files)")) }
        if let bytes = limits.dataBytes { settings.append(("LimitDATA", "\(bytes)")) }
        if let bytes = limits.coreBytes { settings.append(("LimitCORE", "\(bytes)")) }
        if let seconds = limits.cpuSeconds { settings.append(("LimitCPU", "\(seconds)")) }
        if let nice = limits.nice { settings.append(("Nice", "\(nice)")) }
        return settings
    }

    /// The TLS files of a `certificates` folder, as credentials: (variable, file).
    static let credentials = [
        (DaemonSettings.tlsCert.name, "tls.crt"), (DaemonSettings.tlsKey.name, "tls.key"),
        (DaemonSettings.tlsCA.name, "ca.crt"),
    ]

    /// The unit's text; refuses a `certificates` folder systemd would not read back as written
    /// (``SystemdSyntax/credentialPath(_:_:_:)``).
    static func text(
        _ spec: ServiceSpec, in placement: SystemdPlacement, network: SystemdNetwork?, layout: SystemdLayout
    ) throws(ExportError) -> String {
        let manifest = placement.manifest
        let unitName = layout.unitName(spec.name)
        var file = UnitFile(header: SystemdExport.generatedHeader)

        var unit = UnitFile.Section(name: "Unit")
            .with("Description", "Verticals \(spec.name)")
            .with("PartOf", layout.target)
        if spec.socket {
            unit = unit.with("Requires", "\(unitName).socket").with("After", "\(unitName).socket")
        }
        let localDependencies = spec.dependsOn.filter(placement.runsHere)
        for dependency in localDependencies {
            let peer = manifest[dependency]
            let peerUnit = layout.unitName(dependency) + (peer?.socket == false ? ".service" : ".socket")
            unit.set(
                "Wants", peerUnit,
                comment: dependency == localDependencies.first
                    ? [
                        "depends_on: the peers' sockets, not their services. Calls wait in a socket's backlog",
                        "while its service (re)starts, and a peer's restart does not restart this one.",
                    ] : [])
            unit.set("After", peerUnit)
        }
        if spec.replica != nil {
            unit.set(
                "Wants", ReplicaServiceUnit.name(spec, layout: layout),
                comment: ["replica: Litestream copies its store off the host (ReplicaServiceUnit)."])
            let restore = ReplicaRestoreUnit.name(spec, layout: layout)
            unit.set(
                "Requires", restore,
                comment: [
                    "and, with no store file yet, brings it back from the replica first (ReplicaRestoreUnit):",
                    "a restore that fails leaves this unit not started, never started on an empty store.",
                ])
            unit.set("After", restore)
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
            .with(
                "ExecStart", ([spec.executable] + spec.arguments).map(SystemdSyntax.commandWord).joined(separator: " "))
        let loaded = spec.certificates == nil ? [] : credentials.filter { spec.environment[$0.0] == nil }
        for (index, (_, file)) in loaded.enumerated() {
            try service.set(
                "LoadCredential", "\(file):\(SystemdSyntax.credentialPath(spec.certificates ?? "", spec.name, file))",
                comment: index == 0
                    ? [
                        "The TLS files, read by systemd as root from a folder only root reads, into a folder",
                        "only this service reads (%d): no key in a unit or in a file its user could read otherwise.",
                    ] : [])
        }
        let credentialVariables = Set(loaded.map(\.0))
        for (key, value) in environment(spec, in: placement, layout: layout) {
            if credentialVariables.contains(key), let file = loaded.first(where: { $0.0 == key })?.1 {
                service.set("Environment", SystemdSyntax.credentialAssignment(key, file))
            } else {
                service.set("Environment", SystemdSyntax.environmentAssignment(key, value))
            }
        }
        let user = layout.userName(spec)
        service = service.with("User", user)
        // A user of the manifest's choosing may have another primary group: systemd takes it.
        if spec.user == nil { service = service.with("Group", user) }
        // The group that may connect to Unix sockets: not needed by a TCP vertical whose peers are all TCP.
        let callsUnixPeers = localDependencies.contains { manifest[$0]?.endpoint == nil }
        if spec.endpoint == nil || callsUnixPeers { service = service.with("SupplementaryGroups", layout.group) }
        service =
            service
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
        for (key, value) in limits(spec.limits) { service.set(key, value) }
        for (index, setting) in SystemdSandbox.settings(network: network).enumerated() {
            service.set(
                setting.key, setting.value,
                comment: (index == 0 ? ["The sandbox (see SystemdSandbox.swift for what is left open, and why)."] : [])
                    + setting.comment)
        }
        if spec.endpoint != nil {
            service.set(
                "PrivateUsers", "yes",
                comment: [
                    "Over TCP a caller is named by its certificate, never by SO_PEERCRED, so this vertical may",
                    "see every other user as nobody.",
                ])
        }
        file.append(service)
        return file.text
    }

    /// The manifest's `env`, sorted, and where the peers' sockets are. Under systemd every
    /// vertical runs as its own user, and a daemon admits only its own uid, root and the
    /// callers it is told of (ServiceKit's PeerAccess): the access variables come from
    /// ``ServiceAccounts/applyAccess(to:for:in:operatorGroup:identity:)``, as under
    /// svc-supervisor, with callers named by user (systemd resolves them).
    /// Callers named by uid are this host's services (``SystemdPlacement/local``); mutual-TLS
    /// peers and endpoints come from the whole manifest.
    static func environment(_ spec: ServiceSpec, in placement: SystemdPlacement, layout: SystemdLayout) -> [(
        String, String
    )] {
        let manifest = placement.manifest
        var environment = spec.environment
        environment[DaemonSettings.socketDir.name] = layout.socketDirectory
        for name in spec.dependsOn {
            guard let endpoint = manifest[name]?.endpoint else { continue }
            let variable = KubernetesLayout.endpointVariable(name)
            if environment[variable] == nil { environment[variable] = endpoint.description }
        }
        ServiceAccounts.applyDependencies(to: &environment, for: spec)
        ServiceAccounts.applyCertificates(to: &environment, for: spec, in: manifest)
        ServiceAccounts.applyRoutes(to: &environment, for: spec, in: manifest)
        spec.applyIdleExit(to: &environment)
        if spec.replica != nil { environment[DaemonSettings.storeReplica.name] = "litestream" }
        ServiceAccounts.applyAccess(
            to: &environment, for: spec, in: placement.local, operatorGroup: layout.group, identity: layout.userName)
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
