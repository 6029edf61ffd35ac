import VerticalsContract
import VerticalsManifest

/// `svc-supervisor.service`: for hosts that prefer the suite under svc-supervisor (one unit,
/// its own restart budget and logs) to one unit per vertical. It conflicts with `verticals.target`.
///
/// It runs as root, sandboxed less than a vertical: it binds every socket, spawns every vertical
/// through the exec shim (which sets rlimits, process groups and each vertical's user) and may
/// place them in cgroups, which the per-vertical sandbox would forbid. Its capabilities are only
/// those it uses (``capabilities``), and it gains no privilege (`NoNewPrivileges=`). Its run directory holds the verticals' state, so
/// it lives under `/var/lib`, not `/run`.
enum SupervisorServiceUnit {
    // Its file name: `SystemdLayout/supervisorUnit`.

    /// The unit's text. `network` is what its verticals need together (``SystemdNetwork/union(_:)``),
    /// nil when they speak only over Unix sockets: the verticals run in the supervisor's cgroup and
    /// sandbox, so the supervisor's unit opens the network to exactly their addresses, or not at all.
    static func text(_ manifest: Manifest, layout: SystemdLayout, network: SystemdNetwork? = nil) -> String {
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
            .with(
                "ExecReload", "/bin/kill -HUP $MAINPID",
                comment: ["SIGHUP re-reads the manifest and applies the difference."]
            )
            .with(
                "KillMode", "mixed",
                comment: ["SIGTERM to the supervisor alone: it stops the verticals in reverse dependency order."]
            )
            .with("TimeoutStopSec", SystemdSyntax.timeSpan(stopAll))
            .with("Restart", "on-failure")
            .with(
                "RestartPreventExitStatus", "65 78",
                comment: [
                    "65: the manifest is invalid (as `svc-supervisor check` says); 78: a restart cannot help.",
                    "Neither is fixed by trying again: it stays failed until someone fixes the cause.",
                ]
            )
            .with("RestartSec", "1s")
        if run.hasPrefix("/var/lib/") {
            // 0711: each service runs as its own user (svc-supervisor is root here) and must pass
            // through the run folder to its socket, notify socket and state folder; none can list it.
            service.set("StateDirectory", stateName)
            service.set(
                "StateDirectoryMode", "0711",
                comment: [
                    "Its services run as their own users (users made by \(layout.usersFile) at install:",
                    "ProtectSystem=strict keeps /etc read-only here) and pass through this folder, not list it.",
                ])
        }
        service.set(
            "Delegate", "yes",
            comment: [
                "Its cgroup subtree is its own, to place each vertical in a cgroup of its own; for the same",
                "reason /sys stays writable (no ProtectKernelTunables=, no ProtectControlGroups=).",
            ])
        service.set(
            "NoNewPrivileges", "yes",
            comment: [
                "Inherited by every vertical, which vt-exec gives PR_SET_NO_NEW_PRIVS anyway: nothing the",
                "supervisor starts needs a set-user-ID program or file capabilities (systemd-sysusers, which",
                "`up` may run for missing users, is not set-user-ID either).",
            ])
        service.set(
            "CapabilityBoundingSet", capabilities.map(\.name).joined(separator: " "),
            comment: ["Root, with only what it uses:"] + capabilities.map { "\($0.name): \($0.why)" })
        service.set("UMask", "0027")
        service.set(
            "ReadWritePaths", "-\(Supervisor.systemFolder)",
            comment: [
                "Where it leaves a note of its run directory while it runs, so `svc-supervisor status`",
                "finds the suite from any folder (ProtectSystem=strict makes /run read-only otherwise).",
            ])
        for (key, value) in [
            ("ProtectSystem", "strict"), ("ProtectHome", "yes"), ("PrivateTmp", "yes"), ("PrivateDevices", "yes"),
        ] {
            service.set(key, value)
        }
        if let network {
            service.set(
                "RestrictAddressFamilies", "AF_UNIX AF_INET AF_INET6",
                comment: [
                    "Its verticals listen on or call TCP endpoints (mutual TLS), or export traces: they share",
                    "this unit's sandbox, so it has the network, open to their addresses only.",
                ])
            service.set("IPAddressDeny", "any")
            service.set("IPAddressAllow", network.allowedAddresses.joined(separator: " "))
        } else {
            service.set("PrivateNetwork", "yes")
            service.set("RestrictAddressFamilies", "AF_UNIX")
        }
        for (key, value) in [
            ("ProtectHostname", "yes"), ("ProtectClock", "yes"), ("ProtectKernelModules", "yes"),
            ("ProtectKernelLogs", "yes"), ("RestrictNamespaces", "yes"), ("RestrictRealtime", "yes"),
            ("LockPersonality", "yes"), ("MemoryDenyWriteExecute", "yes"), ("RestrictSUIDSGID", "yes"),
            ("SystemCallArchitectures", "native"), ("SystemCallFilter", "@system-service"),
        ] {
            service.set(key, value)
        }
        file.append(service)
        file.append(UnitFile.Section(name: "Install").with("WantedBy", "multi-user.target"))
        return file.text
    }

    /// The capabilities svc-supervisor uses as root, and why; everything else is left out of
    /// its bounding set, and so out of every process it starts. Not among them: binding a port
    /// below 1024 (the suite's TCP endpoints are the manifest's to choose), tracing or reading
    /// other processes' memory (it reads only `/proc/PID/stat`, `statm` and `comm`, which any
    /// user may), `CAP_SYS_ADMIN` (its cgroups are delegated to it, so plain file writes do).
    static let capabilities: [(name: String, why: String)] = [
        ("CAP_SETUID CAP_SETGID", "vt-exec drops each vertical to its own user and groups (setgroups, setgid, setuid)"),
        ("CAP_CHOWN", "gives each vertical its state and runtime folders, its socket and its TLS key"),
        ("CAP_FOWNER", "sets the mode of those once they are the vertical's (chmod of a file root does not own)"),
        ("CAP_DAC_OVERRIDE", "backup, restore and upgrade reach a store inside a vertical's 0700 folder"),
        ("CAP_KILL", "signals and stops verticals, which run as other users"),
        ("CAP_SYS_RESOURCE", "vt-exec sets a manifest's rlimits, which may be above the supervisor's own hard limit"),
        ("CAP_SYS_NICE", "vt-exec applies a manifest's `nice` below 0"),
    ]
}
