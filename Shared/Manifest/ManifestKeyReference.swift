import VerticalsContract

/// Every key a manifest's `[services.NAME]` table (and `[defaults]`) takes, with its type, its
/// default and what it does: the table of docs/reference/manifest.md (`svc-supervisor check
/// --list-keys` prints it, `scripts/reference.sh` writes it). Defaults are read from the model's
/// own initial values, so the page cannot drift from them; a test fails when the decoder takes a
/// key (``ManifestKeys``) that this list lacks.
package enum ManifestKeyReference {
    /// One key: its dotted path (`backoff.initial`), its type, its default and what it does.
    package struct Key: Sendable, Equatable {
        /// The key as a manifest writes it, dotted for a key of a nested table.
        package let path: String
        /// The values it takes.
        package let type: String
        /// What a service has without it.
        package let defaultValue: String
        /// What it does.
        package let doc: String
    }

    private static let spec = ServiceSpec(name: "NAME", executable: "")
    private static func names<Choice: CaseIterable & RawRepresentable>(_: Choice.Type) -> String
    where Choice.RawValue == String { Choice.allCases.map { "`\"\($0.rawValue)\"`" }.joined(separator: ", ") }
    private static func duration(_ value: Duration) -> String { "`\"\(ManifestUnits.text(value))\"`" }

    /// Every key, in the order the page lists them.
    package static let keys: [Key] = [
        Key(
            path: "executable", type: "string", defaultValue: "(required, unless `endpoint` names a remote service)",
            doc:
                "The program: an absolute path, a path from the manifest's folder, or a bare name found beside svc-supervisor."
        ),
        Key(path: "args", type: "array of strings", defaultValue: "`[]`", doc: "Arguments after the program name."),
        Key(
            path: "env", type: "table of strings", defaultValue: "`{}`",
            doc:
                "Extra environment variables, merged key by key with `[defaults]`; those the supervisor sets itself (`LISTEN_FDS`, `NOTIFY_SOCKET`, …) are refused."
        ),
        Key(
            path: "depends_on", type: "array of strings", defaultValue: "`[]`",
            doc:
                "Services (`\"payments\"`) or single operations (`\"payments.charge\"`) that must be ready first; the only services it admits as callers."
        ),
        Key(
            path: "restart", type: names(RestartPolicy.self), defaultValue: "`\"\(spec.restart.rawValue)\"`",
            doc: "When it is restarted after it exits."),
        Key(
            path: "strategy", type: names(RestartStrategy.self), defaultValue: "`\"\(spec.strategy.rawValue)\"`",
            doc: "What else restarts with it: itself, the services started after it, or its whole `group`."),
        Key(
            path: "group", type: "string", defaultValue: "none",
            doc: "The group a `one_for_all` service restarts with (only with that strategy)."),
        Key(
            path: "backoff", type: "table", defaultValue: "",
            doc: "The delay before each restart, merged with `[defaults]`."),
        Key(
            path: "backoff.initial", type: "duration", defaultValue: duration(spec.backoff.initial),
            doc: "The first delay."),
        Key(path: "backoff.max", type: "duration", defaultValue: duration(spec.backoff.max), doc: "The longest delay."),
        Key(
            path: "backoff.multiplier", type: "number, at least 1", defaultValue: "`\(spec.backoff.multiplier)`",
            doc: "The growth of the delay per restart."),
        Key(
            path: "backoff.reset_after", type: "duration", defaultValue: duration(spec.backoff.resetAfter),
            doc: "How long a run must stay ready for the next delay to start from `initial` again."),
        Key(
            path: "budget", type: "table", defaultValue: "",
            doc: "How many restarts it may spend, merged with `[defaults]`."),
        Key(
            path: "budget.restarts", type: "integer, 0 or more", defaultValue: "`\(spec.budget.maxRestarts)`",
            doc: "Restarts allowed within `window`; one more and the service is `failed`."),
        Key(path: "budget.window", type: "duration", defaultValue: duration(spec.budget.window), doc: "The window."),
        Key(
            path: "readiness", type: names(Readiness.self), defaultValue: "`\"\(spec.readiness.rawValue)\"`",
            doc: "How it says it is ready: `READY=1` on `NOTIFY_SOCKET`, or as soon as it runs."),
        Key(
            path: "ready_timeout", type: "duration", defaultValue: duration(spec.readyTimeout),
            doc: "How long it may take to become ready before the start counts as failed."),
        Key(
            path: "stop_signal", type: "signal name or number",
            defaultValue: "`\"\(ManifestUnits.signalName(spec.stopSignal))\"`",
            doc: "The signal that asks it to stop."),
        Key(
            path: "stop_timeout", type: "duration", defaultValue: duration(spec.stopTimeout),
            doc: "How long it may take to stop before SIGKILL."),
        Key(
            path: "watchdog", type: "duration", defaultValue: "off",
            doc: "It must send `WATCHDOG=1` at least this often, or it is restarted as failed."),
        Key(
            path: "log_max_bytes", type: "size: bytes, or a string such as `\"10MiB\"`",
            defaultValue: "`\(spec.logMaxBytes)`",
            doc: "Its log file is rotated when it passes this size."),
        Key(
            path: "logs", type: "table", defaultValue: "",
            doc: "Log rotation beside the size, merged with `[defaults]`."),
        Key(
            path: "logs.max_age", type: "duration", defaultValue: spec.logRotation.maxAge.map(duration) ?? "none",
            doc: "Rotate when the file's first line is older than this."),
        Key(
            path: "logs.keep", type: "integer, 0 to 1000", defaultValue: "`\(spec.logRotation.keep)`",
            doc: "Rotated files kept (0: the old file is deleted)."),
        Key(
            path: "logs.compress", type: "boolean", defaultValue: "`\(spec.logRotation.compress)`",
            doc: "Whether rotated files are gzip-compressed."),
        Key(
            path: "socket", type: "boolean", defaultValue: "`\(spec.socket)`",
            doc: "Whether the supervisor binds `NAME.sock` and hands it over (`LISTEN_FDS`)."),
        Key(
            path: "store", type: "boolean", defaultValue: "`\(spec.store)`",
            doc: "Whether it keeps a store in its state folder (a StatefulSet with a volume in the Kubernetes export)."),
        Key(
            path: "endpoint", type: "string `tcp:HOST:PORT`", defaultValue: "none (a Unix socket)",
            doc:
                "A TCP address to bind and hand over instead of `NAME.sock`; without `executable`, a service on another host."
        ),
        Key(
            path: "host", type: "string", defaultValue: "none (every host)",
            doc: "The host it runs on when one manifest describes several (`export systemd --host`)."),
        Key(
            path: "user", type: "string", defaultValue: "`verticals-NAME`",
            doc: "The user it runs as when svc-supervisor runs as root, and under systemd."),
        Key(
            path: "certificates", type: "string (a folder)", defaultValue: "none",
            doc: "A folder as `svc-supervisor certs` writes it: its TLS files and its callers' names as allowed peers."),
        Key(
            path: "receives", type: "array of " + names(SecretKind.self), defaultValue: "`[]`",
            doc:
                "The kinds of secret the CLI sends to this service and to no other (`login`: sessions, `admin create`: first_admin, `password`, `admin grant`/`revoke`: roles, `logout`); one service per kind, never in `[defaults]`."
        ),
        Key(
            path: "replica", type: "table, or `false`", defaultValue: "none (the store stays on its host)",
            doc:
                "Where Litestream copies its store off the host, continuously, merged with `[defaults]`; `false` turns an inherited one off. Only for a service with a store."
        ),
        Key(
            path: "replica.type", type: "`\"folder\"`, `\"sftp\"`, `\"s3\"`", defaultValue: "(required)",
            doc: "A folder (on another disk), an SFTP account, or an S3-compatible bucket."),
        Key(
            path: "replica.path", type: "string (an absolute path; in a bucket, a folder)",
            defaultValue: "(required, but for s3: the bucket's root)",
            doc:
                "The folder of folders the copies go to: each service's store goes to `path/NAME`. A folder replica must lie outside every store's folder, in a `path` no user but root may write: root makes `path/NAME` there (docs/systemd.md)."
        ),
        Key(
            path: "replica.host", type: "string", defaultValue: "(required for sftp)",
            doc: "The SFTP server's name or address."),
        Key(path: "replica.port", type: "integer, 1 to 65535", defaultValue: "`22`", doc: "The SFTP server's port."),
        Key(
            path: "replica.user", type: "string", defaultValue: "`verticals-NAME`",
            doc:
                "The SFTP account; `{name}` is the service's name. Give each vertical an account of its own, confined to its folder (`ChrootDirectory`)."
        ),
        Key(
            path: "replica.key_file", type: "string (an absolute path)", defaultValue: "(required for sftp)",
            doc:
                "The private key that logs in; `{name}` is the service's name. Readable by the service's user alone: `check` refuses one others may read, and two services sharing one."
        ),
        Key(
            path: "replica.host_key", type: "string `\"ssh-ed25519 AAAA…\"`", defaultValue: "(required for sftp)",
            doc:
                "The server's public host key (`ssh-keyscan -t ed25519 HOST`); without it Litestream would not check the server, so it is required."
        ),
        Key(
            path: "replica.bucket", type: "string", defaultValue: "(required for s3)", doc: "The bucket."),
        Key(
            path: "replica.endpoint", type: "string (a URL)", defaultValue: "none (AWS)",
            doc: "The endpoint of an S3-compatible store other than AWS, e.g. `\"https://s3.example.net:9000\"`."),
        Key(path: "replica.region", type: "string", defaultValue: "none", doc: "The bucket's region."),
        Key(
            path: "replica.credentials_file", type: "string (an absolute path)", defaultValue: "(required for s3)",
            doc:
                "An AWS shared-credentials file (`aws_access_key_id`, `aws_secret_access_key`); `{name}` is the service's name. Readable by the service's user alone."
        ),
        Key(
            path: "replica.sync_interval", type: "duration", defaultValue: duration(Replica.defaultSyncInterval),
            doc: "How often committed changes are shipped: at most this much acknowledged work is lost with the host."),
        Key(
            path: "replica.retention", type: "duration", defaultValue: duration(Replica.defaultRetention),
            doc: "How long the replica keeps history: the earliest point in time a store can be restored to."),
        Key(
            path: "start", type: names(StartMode.self), defaultValue: "`\"\(spec.start.rawValue)\"`",
            doc: "Start with the suite, or at the first connection to its socket (needs `socket = true`)."),
        Key(
            path: "idle_exit", type: "duration", defaultValue: "never",
            doc:
                "It exits once idle this long, and the next caller starts it again (needs `socket = true`); never "
                + "sooner than `budget.window / budget.restarts` after it started "
                + "(`VERTICALS_IDLE_EXIT_MIN_UPTIME_SECONDS`), so nobody can start it more often than the budget."),
        Key(
            path: "liveness", type: "table", defaultValue: "off",
            doc: "Calls `daemon.health` on its socket; enough failed calls in a row restart it as failed."),
        Key(
            path: "liveness.interval", type: "duration", defaultValue: duration(LivenessCheck().interval),
            doc: "The wait between one check's end and the next."),
        Key(
            path: "liveness.timeout", type: "duration", defaultValue: duration(LivenessCheck().timeout),
            doc: "How long one call may take."),
        Key(
            path: "liveness.failures", type: "integer, 1 to 1000", defaultValue: "`\(LivenessCheck().failures)`",
            doc: "Failed calls in a row that make it dead."),
        Key(
            path: "limits", type: "table", defaultValue: "none (the supervisor's own are inherited)",
            doc:
                "Resource limits, set between fork and exec and, for `memory`, `cpu`, `cpu_weight` and `tasks`, through a cgroup of its own."
        ),
        Key(
            path: "limits.open_files", type: "integer", defaultValue: "inherited",
            doc: "RLIMIT_NOFILE: open file descriptors."),
        Key(path: "limits.data", type: "size", defaultValue: "inherited", doc: "RLIMIT_DATA: heap and data segments."),
        Key(path: "limits.core", type: "size (0: no core dumps)", defaultValue: "inherited", doc: "RLIMIT_CORE."),
        Key(path: "limits.cpu_seconds", type: "integer", defaultValue: "inherited", doc: "RLIMIT_CPU: CPU seconds."),
        Key(path: "limits.nice", type: "integer, -20 to 19", defaultValue: "inherited", doc: "Niceness."),
        Key(
            path: "limits.memory", type: "size, at least `\"4MiB\"`", defaultValue: "none",
            doc: "cgroup memory limit; past it the kernel's OOM killer ends it."),
        Key(path: "limits.cpu", type: "string `\"N%\"` of one CPU", defaultValue: "none", doc: "cgroup CPU quota."),
        Key(
            path: "limits.cpu_weight", type: "integer, 1 to 10000", defaultValue: "none (100, as every service's)",
            doc:
                "cgroup CPU weight (`cpu.weight`, systemd's `CPUWeight=`): its share of the processors while others want them too, against their 100; nothing is taken while the processors are free."
        ),
        Key(
            path: "limits.tasks", type: "integer, 1 to 4194304", defaultValue: "none",
            doc:
                "cgroup limit on its processes and threads together (`pids.max`, systemd's `TasksMax=`): past it, `fork` and new threads fail in it alone."
        ),
    ]

    /// The page: a Markdown table of ``keys``.
    package static func markdown() -> String {
        var lines = [
            "# Manifest keys", "",
            "<!-- Generated by `svc-supervisor check --list-keys` (scripts/reference.sh): do not edit. -->", "",
            "Each `[services.NAME]` table of a manifest takes these keys; `[defaults]` takes the same and gives",
            "them to every service (tables such as `env` and `backoff` merge key by key). A key of a nested",
            "table is written inside it: `backoff = { initial = \"100ms\" }` sets `backoff.initial`.", "",
            "| key | type | default | what it does |",
            "|---|---|---|---|",
        ]
        for key in keys {
            let cells = ["`\(key.path)`", key.type, key.defaultValue, key.doc].map { $0.replacingPipes() }
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        lines += [
            "", "## Names", "",
            "A service's name is a lowercase letter, then lowercase letters, digits and `-`, at most "
                + "\(ServiceName.maxLength) characters: it names the socket, the log, the state folder and the unit.",
            "A name that a role or the suite's own files use is not a vertical's name: `check`, `up`, `certs`, "
                + "`init` and `new` refuse each of these.", "",
        ]
        lines += ServiceName.roles.map { "- `\($0.name)`: \($0.usedBy)." }
        lines += [
            "", "## The suite's name", "",
            "`[suite]` takes one key, `name`: the product's name on a host (default `\(SuiteName.default)`, the "
                + "framework's suite). Its systemd units, users, group and folders, and its Kubernetes namespace, "
                + "are named after it (`NAME-SERVICE.service`, user `NAME-SERVICE`, group `NAME`, `/run/NAME`), so "
                + "two products on one host share none. It is a lowercase letter, then lowercase letters, digits "
                + "and `-`, not ending in `-`, at most \(SuiteName.maxLength) bytes.",
            "", "## Replicas", "",
            "A `replica` is copied by Litestream 0.5, never by the framework: Litestream runs as the vertical's own "
                + "user (docs/SECURITY.md says why and what follows), with a configuration of the store's own that the "
                + "framework writes from the entry (`LitestreamConfiguration`: every value quoted, credentials by path, "
                + "run with `-no-expand-env`), and the vertical's daemon is started with "
                + "`VERTICALS_STORE_REPLICA=litestream`, which leaves the store's checkpoints to Litestream. `check` "
                + "validates every entry; `export systemd` runs Litestream in a unit of each replicated vertical's "
                + "own, after a oneshot that restores a missing store before the vertical starts (docs/systemd.md); "
                + "`export kubernetes` runs it as a native sidecar in the vertical's pod, after an init container that "
                + "restores an empty volume, and refuses a folder replica (docs/kubernetes.md). `svc-supervisor up` runs it beside each replicated vertical once the vertical is "
                + "ready, as its user, with the configuration in the run directory's `replicas/NAME/` (readable by root and "
                + "the vertical alone), its lines in the vertical's log (stamped `litestream`), restarted with the "
                + "vertical's backoff and budget, stopped before the vertical and before a restore, and its state in "
                + "`status` (`VERTICALS_LITESTREAM` names the program; without one the vertical runs unreplicated and "
                + "`status` says so).",
        ]
        lines += [
            "", "## Secrets", "",
            "Which vertical receives each kind of secret is the manifest's word alone (`receives`): `svc-supervisor "
                + "status` serves it, and `export systemd` writes it to `NAME-secrets.conf` (`verticals-secrets.conf` for the framework's suite) beside the units. "
                + "The CLI sends a password or a token only there, never to a vertical chosen by what it describes "
                + "of itself, and refuses a description that claims a kind the manifest gives another vertical. "
                + "Two services that receive one kind are refused by `check` and `up`.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    fileprivate func replacingPipes() -> String {
        split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
    }
}
