/// The sandbox every vertical's service runs in, as `Key=value` pairs.
///
/// A vertical needs only: its inherited listening socket, Unix-socket connections to its
/// peers' sockets in `/run/verticals`, its own `StateDirectory=`, and the journal on stdout.
/// Everything else is taken away. `systemd-analyze security --offline=true` rates a unit with
/// this sandbox 0.5 ("SAFE"); what it still counts against it is deliberate:
///
/// - `PrivateUsers=` and `DynamicUser=` are left out: both hide the caller's uid from
///   `SO_PEERCRED` (it reads 65534), which is how a vertical knows who calls it. Each vertical
///   runs as a static user from the sysusers.d file instead.
/// - `SupplementaryGroups=verticals`: membership of the group that may connect to the suite's
///   sockets (0660), so a vertical can call its peers.
/// - `RestrictAddressFamilies=AF_UNIX`: the suite speaks only over Unix sockets. A vertical
///   that listens on TCP, calls a peer over TCP or exports traces (``SystemdNetwork``) gets
///   `AF_INET AF_INET6` too, no `PrivateNetwork=`, and `IPAddressAllow=` with only its peers'
///   addresses after `IPAddressDeny=any`.
/// - `ProtectClock=` leaves a read-only `/dev/rtc` in the device ACL.
/// - No `RootDirectory=`: the binaries link the host's Swift runtime.
/// - `setpriority` is allowed out of `@resources` (it moves the score from 0.4 to 0.5), with
///   `LimitNICE=-4`: the Swift runtime's libdispatch renices every worker thread it starts to its
///   queue's QoS, and logs `Failed to set thread priority for worker thread … errno=1` (refused by
///   the filter) or `errno=13` (a nice below 0 without `RLIMIT_NICE`) otherwise. It makes the call
///   for every worker thread, at nice 0 too, and every vertical starts such threads: GRDB's async
///   `read` and `write` run their closures on the store's queue through `DispatchQueue.async`. The
///   stores run GRDB's queues at QoS default (nice 0), so the verticals need no raised limit while
///   they serve: where systemd cannot raise it (`LimitNICE=` is clamped to an inherited hard limit,
///   as in a container without `CAP_SYS_RESOURCE`) they log nothing then. A graceful stop logs one
///   `errno=13` line there: disposing GRDB's queues wakes a worker of libdispatch's default pool,
///   and the first of those starts libdispatch's manager thread at the user-interactive QoS
///   (nice -4). A vertical can lower its own threads' priority, or raise them as far as nice -4; it
///   still cannot touch real-time scheduling, affinity, memory policy or rlimits.
enum SystemdSandbox {
    /// The settings of a unit with `network` (nil: Unix sockets only), in the order they are
    /// written, each with why when it is not obvious.
    static func settings(network: SystemdNetwork?) -> [(key: String, value: String, comment: [String])] {
        guard let network else { return settings }
        var out: [(key: String, value: String, comment: [String])] = []
        for setting in settings {
            switch setting.key {
            case "PrivateNetwork":
                continue
            case "IPAddressDeny":
                out.append(
                    (
                        "IPAddressDeny", "any",
                        [
                            "TCP, but only with the peers of its routes (and its collector): every other address is denied."
                        ]
                    ))
                out.append(("IPAddressAllow", network.allowedAddresses.joined(separator: " "), []))
            case "RestrictAddressFamilies":
                out.append(("RestrictAddressFamilies", "AF_UNIX AF_INET AF_INET6", []))
            default:
                out.append(setting)
            }
        }
        return out
    }

    /// The settings of a vertical that speaks only over Unix sockets.
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
        (
            "MemoryDenyWriteExecute", "yes",
            ["Swift compiles ahead of time: no page is ever both writable and executable."]
        ),
        ("RemoveIPC", "yes", []),
        ("KeyringMode", "private", []),
        ("SystemCallArchitectures", "native", []),
        ("SystemCallFilter", "@system-service", []),
        ("SystemCallFilter", "~@privileged @resources", []),
        (
            "SystemCallFilter", "setpriority",
            [
                "But setpriority: libdispatch renices each worker thread to its QoS (nice 10 to -4) and logs",
                "\"Failed to set thread priority for worker thread\" when refused. A later allow line puts a call",
                "back into the allow list (systemd.exec(5)); the rest of @resources stays denied.",
            ]
        ),
        (
            "LimitNICE", "-4",
            ["The highest QoS's nice, -4, without CAP_SYS_NICE (RLIMIT_NICE 24); nothing may go higher."]
        ),
        (
            "SystemCallErrorNumber", "EPERM",
            ["A filtered call fails with EPERM instead of killing the process, so it shows in the log."]
        ),
    ]
}
