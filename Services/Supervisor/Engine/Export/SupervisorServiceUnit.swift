/// `svc-supervisor.service`: for hosts that prefer the suite under svc-supervisor (one unit,
/// its own restart budget and logs) to one unit per vertical. It conflicts with `verticals.target`.
///
/// It runs as root, lightly sandboxed (`systemd-analyze security` rates it 4.0, "OK"): it binds
/// every socket, spawns every vertical through the exec shim (which sets rlimits and process
/// groups) and may place them in cgroups, which the per-vertical sandbox would forbid. Its run directory holds the verticals' state, so
/// it lives under `/var/lib`, not `/run`.
enum SupervisorServiceUnit {
    /// The unit's file name.
    static let name = "svc-supervisor.service"

    /// The unit's text.
    static func text(_ manifest: Manifest, layout: SystemdLayout) -> String {
        var file = UnitFile(header: SystemdExport.generatedHeader)
        file.append(
            UnitFile.Section(name: "Unit")
                .with("Description", "Verticals under svc-supervisor (instead of \(layout.target))")
                .with("Conflicts", layout.target))

        let run = layout.supervisorRunDirectory
        let stateName = String(run.dropFirst("/var/lib/".count))
        // Every service may take its whole stop_timeout, one after another in reverse order.
        let stopAll = manifest.services.reduce(Duration.seconds(5)) { $0 + $1.stopTimeout }
        let command = [
            "\(layout.binDirectory)/svc-supervisor", "up", "--manifest", layout.installedManifest, "--run-dir", run,
        ]
        var service = UnitFile.Section(name: "Service")
            .with("Type", "exec")
            .with("ExecStart", command.map(SystemdSyntax.commandWord).joined(separator: " "))
            .with("ExecReload", "/bin/kill -HUP $MAINPID", comment: ["SIGHUP re-reads the manifest and applies the difference."])
            .with(
                "KillMode", "mixed",
                comment: ["SIGTERM to the supervisor alone: it stops the verticals in reverse dependency order."])
            .with("TimeoutStopSec", SystemdSyntax.timeSpan(stopAll))
            .with("Restart", "on-failure")
            .with(
                "RestartPreventExitStatus", "65 78",
                comment: [
                    "65: the manifest is invalid (as `svc-supervisor check` says); 78: a restart cannot help.",
                    "Neither is fixed by trying again: it stays failed until someone fixes the cause.",
                ])
            .with("RestartSec", "1s")
        if run.hasPrefix("/var/lib/") {
            // 0711: each service runs as its own user (svc-supervisor is root here) and must pass
            // through the run folder to its socket, notify socket and state folder; none can list it.
            service.set("StateDirectory", stateName)
            service.set(
                "StateDirectoryMode", "0711",
                comment: [
                    "Its services run as their own users (users made by sysusers.d/verticals.conf at install:",
                    "ProtectSystem=strict keeps /etc read-only here) and pass through this folder, not list it.",
                ])
        }
        service.set(
            "Delegate", "yes",
            comment: [
                "Its cgroup subtree is its own, to place each vertical in a cgroup of its own; for the same",
                "reason /sys stays writable (no ProtectKernelTunables=, no ProtectControlGroups=).",
            ])
        service.set("UMask", "0027")
        service.set(
            "ReadWritePaths", "-\(SuitePointer.systemFolder)",
            comment: [
                "Where it leaves a note of its run directory while it runs, so `svc-supervisor status`",
                "finds the suite from any folder (ProtectSystem=strict makes /run read-only otherwise).",
            ])
        for (key, value) in [
            ("ProtectSystem", "strict"), ("ProtectHome", "yes"), ("PrivateTmp", "yes"), ("PrivateDevices", "yes"),
            ("PrivateNetwork", "yes"), ("RestrictAddressFamilies", "AF_UNIX"), ("ProtectHostname", "yes"),
            ("ProtectClock", "yes"), ("ProtectKernelModules", "yes"),
            ("ProtectKernelLogs", "yes"), ("RestrictNamespaces", "yes"), ("RestrictRealtime", "yes"),
            ("LockPersonality", "yes"), ("MemoryDenyWriteExecute", "yes"), ("SystemCallArchitectures", "native"),
            ("SystemCallFilter", "@system-service"),
        ] {
            service.set(key, value)
        }
        file.append(service)
        file.append(UnitFile.Section(name: "Install").with("WantedBy", "multi-user.target"))
        return file.text
    }
}
