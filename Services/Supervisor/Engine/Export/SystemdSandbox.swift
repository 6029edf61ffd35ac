/// The sandbox every vertical's service runs in, as `Key=value` pairs.
///
/// A vertical needs only: its inherited listening socket, Unix-socket connections to its
/// peers' sockets in `/run/verticals`, its own `StateDirectory=`, and the journal on stdout.
/// Everything else is taken away. `systemd-analyze security --offline=true` rates a unit with
/// this sandbox 0.4 ("SAFE"); what it still counts against it is deliberate:
///
/// - `PrivateUsers=` and `DynamicUser=` are left out: both hide the caller's uid from
///   `SO_PEERCRED` (it reads 65534), which is how a vertical knows who calls it. Each vertical
///   runs as a static user from the sysusers.d file instead.
/// - `SupplementaryGroups=verticals`: membership of the group that may connect to the suite's
///   sockets (0660), so a vertical can call its peers.
/// - `RestrictAddressFamilies=AF_UNIX`: the suite speaks only over Unix sockets.
/// - `ProtectClock=` leaves a read-only `/dev/rtc` in the device ACL.
/// - No `RootDirectory=`: the binaries link the host's Swift runtime.
enum SystemdSandbox {
    /// The settings, in the order they are written, each with why when it is not obvious.
    static let settings: [(key: String, value: String, comment: [String])] = [
        ("UMask", "0077", []),
        ("NoNewPrivileges", "yes", []),
        ("CapabilityBoundingSet", "", ["No capabilities at all: a vertical never needs privilege."]),
        ("AmbientCapabilities", "", []),
        ("ProtectSystem", "strict", ["The whole file system is read-only but for StateDirectory=."]),
        ("ProtectHome", "yes", []),
        ("PrivateTmp", "yes", []),
        ("PrivateDevices", "yes", []),
        ("DevicePolicy", "closed", []),
        (
            "PrivateNetwork", "yes",
            ["No network at all: Unix sockets on the file system (the suite's only transport) still connect."]
        ),
        ("IPAddressDeny", "any", []),
        ("RestrictAddressFamilies", "AF_UNIX", []),
        ("PrivateIPC", "yes", []),
        ("PrivateMounts", "yes", []),
        ("ProtectHostname", "yes", []),
        ("ProtectClock", "yes", []),
        ("ProtectKernelTunables", "yes", []),
        ("ProtectKernelModules", "yes", []),
        ("ProtectKernelLogs", "yes", []),
        ("ProtectControlGroups", "yes", []),
        ("ProtectProc", "invisible", []),
        ("ProcSubset", "pid", []),
        ("RestrictNamespaces", "yes", []),
        ("RestrictRealtime", "yes", []),
        ("RestrictSUIDSGID", "yes", []),
        ("LockPersonality", "yes", []),
        ("MemoryDenyWriteExecute", "yes", ["Swift compiles ahead of time: no page is ever both writable and executable."]),
        ("RemoveIPC", "yes", []),
        ("KeyringMode", "private", []),
        ("SystemCallArchitectures", "native", []),
        ("SystemCallFilter", "@system-service", []),
        ("SystemCallFilter", "~@privileged @resources", []),
        (
            "SystemCallErrorNumber", "EPERM",
            ["A filtered call fails with EPERM instead of killing the process, so it shows in the log."]
        ),
    ]
}
