import Foundation
import Testing
import VerticalsDeploy
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting

/// How each manifest key becomes a unit setting (`SystemdExport`, in-process).
@Suite(.blocking)
struct SystemdExportTests {
    private let twoServices = """
        [defaults]
        restart = "always"
        backoff = { initial = "250ms", max = "10s", multiplier = 3 }
        budget = { restarts = 3, window = "2m" }
        stop_signal = "SIGINT"
        stop_timeout = "4s"
        ready_timeout = "1m30s"
        [services.alpha]
        executable = "svc-alpha"
        [services.beta]
        executable = "svc-beta"
        depends_on = ["alpha"]
        restart = "never"
        watchdog = "20s"
        readiness = "none"
        """

    @Test func dependsOn_wantsAndOrdersAfterThePeersSocket_neverRequiresItsService() throws {
        let files = try SystemdExport.files(for: DeployFixture.manifest(twoServices))
        let beta = try #require(files["verticals-beta.service"])
        #expect(DeployFixture.values("Wants", in: beta) == ["verticals-alpha.socket"])
        #expect(DeployFixture.values("After", in: beta) == ["verticals-beta.socket", "verticals-alpha.socket"])
        #expect(DeployFixture.values("Requires", in: beta) == ["verticals-beta.socket"])
        #expect(!beta.contains("verticals-alpha.service"))
    }

    /// Each vertical runs as its own user under systemd, and a daemon admits only its own uid,
    /// root and the callers it is told of: its dependents must be named, or their calls are refused.
    @Test func dependents_mayConnectAndCallInternalOperations_unlessTheManifestNamesTheCallers() throws {
        let files = try SystemdExport.files(
            for: DeployFixture.manifest(
                twoServices.replacingOccurrences(
                    of: "[services.alpha]\nexecutable = \"svc-alpha\"",
                    with:
                        "[services.alpha]\nexecutable = \"svc-alpha\"\nenv = { VERTICALS_INTERNAL_OPERATIONS = \"send\" }"
                )
                    + "\n[services.gamma]\nexecutable = \"svc-gamma\"\ndepends_on = [\"alpha\"]\n"
                    + "env = { VERTICALS_ALLOWED_UIDS = \"1234\" }\n[services.delta]\nexecutable = \"svc-delta\"\n"
                    + "depends_on = [\"gamma\"]\n"))
        let alpha = try #require(files["verticals-alpha.service"])
        #expect(
            DeployFixture.values("Environment", in: alpha).contains(
                "\"VERTICALS_ALLOWED_UIDS=verticals-beta,verticals-gamma\""))
        #expect(
            DeployFixture.values("Environment", in: alpha).contains(
                "\"VERTICALS_INTERNAL_UIDS=verticals-beta,verticals-gamma\""))
        let gamma = try #require(files["verticals-gamma.service"])
        #expect(DeployFixture.values("Environment", in: gamma).contains("\"VERTICALS_ALLOWED_UIDS=1234\""))
        #expect(!DeployFixture.values("Environment", in: gamma).contains { $0.contains("INTERNAL") })
        let delta = try #require(files["verticals-delta.service"])
        #expect(!DeployFixture.values("Environment", in: delta).contains { $0.contains("ALLOWED_UIDS") })
        // Operators: the group `verticals` as a primary group, on every vertical.
        #expect(DeployFixture.values("Environment", in: delta).contains("\"VERTICALS_ALLOWED_GIDS=verticals\""))
    }

    @Test func restartBackoffBudgetAndTimeouts_comeFromTheManifest() throws {
        let files = try SystemdExport.files(for: DeployFixture.manifest(twoServices))
        let alpha = try #require(files["verticals-alpha.service"])
        #expect(DeployFixture.values("Restart", in: alpha) == ["always"])
        #expect(DeployFixture.values("RestartSec", in: alpha) == ["250ms"])
        #expect(DeployFixture.values("RestartPreventExitStatus", in: alpha) == ["78"], "a held store is not restarted")
        #expect(DeployFixture.values("StartLimitBurst", in: alpha) == ["4"]) // the first start and 3 restarts
        #expect(DeployFixture.values("StartLimitIntervalSec", in: alpha) == ["120s"])
        #expect(DeployFixture.values("TimeoutStartSec", in: alpha) == ["90s"])
        #expect(DeployFixture.values("TimeoutStopSec", in: alpha) == ["4s"])
        #expect(DeployFixture.values("KillSignal", in: alpha) == ["SIGINT"])
        #expect(DeployFixture.values("Type", in: alpha) == ["notify"])
        #expect(DeployFixture.values("WatchdogSec", in: alpha) == [])
        #expect(DeployFixture.values("ExecStart", in: alpha) == ["/usr/local/bin/svc-alpha"])
        #expect(DeployFixture.values("User", in: alpha) == ["verticals-alpha"])
        #expect(DeployFixture.values("StateDirectory", in: alpha) == ["verticals/alpha"])

        let beta = try #require(files["verticals-beta.service"])
        #expect(DeployFixture.values("Restart", in: beta) == ["no"])
        #expect(DeployFixture.values("RestartSec", in: beta) == [])
        #expect(DeployFixture.values("RestartPreventExitStatus", in: beta) == [])
        #expect(DeployFixture.values("WatchdogSec", in: beta) == ["20s"])
        #expect(DeployFixture.values("Type", in: beta) == ["exec"])
    }

    /// What `svc-supervisor up` applies through vt-exec and its cgroups, systemd applies from the
    /// unit: no host grants a vertical more than another.
    @Test func limits_becomeTheUnitsLimits_andSystemdReadsThem() throws {
        let directory = TemporaryDirectory()
        let layout = SystemdLayout(prefix: directory.path)
        let manifest = try DeployFixture.manifest(
            """
            [services.alpha]
            executable = "\(DeployFixture.program)"
            limits = { memory = "64MiB", cpu = "10%", open_files = 64, data = "512MiB", core = 0, cpu_seconds = 3600, nice = 5, cpu_weight = 20, tasks = 128 }
            [services.beta]
            executable = "\(DeployFixture.program)"
            """, binDirectory: layout.binDirectory)
        let files = try SystemdExport.files(for: manifest, layout: layout)
        let alpha = try #require(files["verticals-alpha.service"])
        #expect(DeployFixture.values("MemoryMax", in: alpha) == ["67108864"])
        #expect(DeployFixture.values("CPUQuota", in: alpha) == ["10%"])
        #expect(DeployFixture.values("LimitNOFILE", in: alpha) == ["64"])
        #expect(DeployFixture.values("LimitDATA", in: alpha) == ["536870912"])
        #expect(DeployFixture.values("LimitCORE", in: alpha) == ["0"])
        #expect(DeployFixture.values("LimitCPU", in: alpha) == ["3600"])
        #expect(DeployFixture.values("Nice", in: alpha) == ["5"])
        #expect(DeployFixture.values("TasksMax", in: alpha) == ["128"])
        #expect(DeployFixture.values("CPUWeight", in: alpha) == ["20"])
        let beta = try #require(files["verticals-beta.service"])
        #expect(
            ["MemoryMax", "CPUQuota", "CPUWeight", "TasksMax", "LimitNOFILE", "Nice"].allSatisfy {
                DeployFixture.values($0, in: beta).isEmpty
            })
        try DeployFixture.installAndVerify(files, in: directory)
    }

    @Test func everyServiceIsSandboxed_withoutHidingItsUid() throws {
        let files = try SystemdExport.files(for: DeployFixture.manifest(twoServices))
        for name in ["alpha", "beta"] {
            let unit = try #require(files["verticals-\(name).service"])
            #expect(DeployFixture.values("ProtectSystem", in: unit) == ["strict"])
            #expect(DeployFixture.values("RestrictAddressFamilies", in: unit) == ["AF_UNIX"])
            #expect(DeployFixture.values("CapabilityBoundingSet", in: unit) == [""])
            #expect(DeployFixture.values("NoNewPrivileges", in: unit) == ["yes"])
            // SO_PEERCRED must name the caller: no DynamicUser=, no PrivateUsers=.
            #expect(DeployFixture.values("DynamicUser", in: unit) == [])
            #expect(DeployFixture.values("PrivateUsers", in: unit) == [])
        }
    }

    @Test func socketUnit_listensInRunVerticals_0660_forTheGroup() throws {
        let files = try SystemdExport.files(for: DeployFixture.manifest(twoServices))
        let socket = try #require(files["verticals-alpha.socket"])
        #expect(DeployFixture.values("ListenStream", in: socket) == ["/run/verticals/alpha.sock"])
        #expect(DeployFixture.values("SocketMode", in: socket) == ["0660"])
        #expect(DeployFixture.values("SocketGroup", in: socket) == ["verticals"])
    }

    @Test func targetUsersAndFolders_coverEveryService() throws {
        let files = try SystemdExport.files(for: DeployFixture.manifest(twoServices))
        let target = try #require(files["verticals.target"])
        #expect(
            DeployFixture.values("Wants", in: target) == [
                "verticals-alpha.socket verticals-alpha.service", "verticals-beta.socket verticals-beta.service",
            ])
        let users = try #require(files["sysusers.d/verticals.conf"])
        #expect(users.contains("\ng verticals -\n"))
        #expect(users.contains("\nu verticals-alpha - \"Verticals alpha\" - -\n"))
        #expect(users.contains("\nu verticals-beta - \"Verticals beta\" - -\n"))
        #expect(try #require(files["tmpfiles.d/verticals.conf"]).contains("\nd /run/verticals 0750 root verticals -\n"))
        let supervisor = try #require(files["svc-supervisor.service"])
        #expect(
            DeployFixture.values("ExecStart", in: supervisor) == [
                "/usr/local/bin/svc-supervisor up --manifest /usr/local/etc/verticals/suite.toml "
                    + "--run-dir /var/lib/verticals-supervisor"
            ])
        #expect(DeployFixture.values("TimeoutStopSec", in: supervisor) == ["13s"]) // 4s + 4s + 5s
        #expect(DeployFixture.values("Conflicts", in: supervisor) == ["verticals.target"])
    }

    @Test func supervisorUnit_gainsNoPrivilege_andKeepsOnlyTheCapabilitiesItUses_eachSaidWhy() throws {
        let supervisor = try #require(
            try SystemdExport.files(for: DeployFixture.manifest(twoServices))["svc-supervisor.service"])
        #expect(DeployFixture.values("NoNewPrivileges", in: supervisor) == ["yes"])
        #expect(DeployFixture.values("RestrictSUIDSGID", in: supervisor) == ["yes"])
        let kept = DeployFixture.values("CapabilityBoundingSet", in: supervisor).flatMap { $0.split(separator: " ") }
        #expect(
            Set(kept) == [
                "CAP_SETUID", "CAP_SETGID", "CAP_CHOWN", "CAP_FOWNER", "CAP_DAC_OVERRIDE", "CAP_KILL",
                "CAP_SYS_RESOURCE", "CAP_SYS_NICE",
            ])
        for capability in kept {
            #expect(
                supervisor.contains("\n# \(capability)") || supervisor.contains(" \(capability): "),
                "\(capability) says why")
        }
        for unused in ["CAP_SYS_ADMIN", "CAP_NET_BIND_SERVICE", "CAP_SYS_PTRACE", "CAP_SETPCAP", "CAP_NET_ADMIN"] {
            #expect(!kept.contains(Substring(unused)))
        }
    }

    @Test func supervisorUnit_isNotRestarted_onAnInvalidManifest_andMayLeaveItsPointer() throws {
        let supervisor = try #require(
            try SystemdExport.files(for: DeployFixture.manifest(twoServices))["svc-supervisor.service"])
        // `up` exits 65 on an invalid manifest: a restart loop would only repeat it.
        #expect(DeployFixture.values("RestartPreventExitStatus", in: supervisor) == ["65 78"])
        #expect(DeployFixture.values("ReadWritePaths", in: supervisor) == ["-/run/verticals"])
    }

    @Test func serviceWithoutSocket_hasNoSocketUnit_andItsDependentsWantItsService() throws {
        let manifest = try DeployFixture.manifest(
            """
            [services.worker]
            executable = "/opt/worker"
            socket = false
            [services.api]
            executable = "svc-api"
            depends_on = ["worker"]
            """)
        let files = try SystemdExport.files(for: manifest)
        #expect(files["verticals-worker.socket"] == nil)
        let worker = try #require(files["verticals-worker.service"])
        #expect(DeployFixture.values("Requires", in: worker) == [])
        #expect(DeployFixture.values("ExecStart", in: worker) == ["/opt/worker"])
        #expect(
            DeployFixture.values("Wants", in: try #require(files["verticals-api.service"])) == [
                "verticals-worker.service"
            ])
    }

    @Test func argsAndEnv_areQuotedSoSystemdReadsThemBackExactly() throws {
        let manifest = try DeployFixture.manifest(
            #"""
            [services.alpha]
            executable = "svc-alpha"
            args = ["--name", "two words", "100%", "$HOME", "say \"hi\""]
            env = { GREETING = "hello \"world\" 50% $USER", PLAIN = "x" }
            """#)
        let unit = try #require(try SystemdExport.files(for: manifest)["verticals-alpha.service"])
        #expect(
            DeployFixture.values("ExecStart", in: unit) == [
                #"/usr/local/bin/svc-alpha --name "two words" 100%% $$HOME "say \"hi\"""#
            ])
        #expect(
            DeployFixture.values("Environment", in: unit) == [
                #""GREETING=hello \"world\" 50%% $USER""#, #""PLAIN=x""#, #""VERTICALS_ALLOWED_GIDS=verticals""#,
                #""VERTICALS_ALLOWED_OPERATIONS=""#, #""VERTICALS_DEPENDS_ON=""#,
                #""VERTICALS_SOCKET_DIR=/run/verticals""#, #""VERTICALS_SUITE_USERS=alpha:verticals-alpha""#,
            ])
    }

    @Test func prefix_movesEveryProgram() throws {
        let layout = SystemdLayout(prefix: "/opt/verticals/")
        let files = try SystemdExport.files(for: DeployFixture.suiteManifest(layout: layout), layout: layout)
        #expect(
            DeployFixture.values("ExecStart", in: try #require(files["verticals-ledger.service"])) == [
                "/opt/verticals/bin/vt-testd ledger"
            ])
        #expect(
            try #require(files["svc-supervisor.service"]).contains(
                "ExecStart=/opt/verticals/bin/svc-supervisor up --manifest /opt/verticals/etc/verticals/suite.toml"))
    }

    @Test func nameTooLongForASystemUser_isRefused_namingTheService() throws {
        let name = "a" + String(repeating: "b", count: 21) // verticals- + 22 = 32 > 31
        let manifest = try DeployFixture.manifest("[services.\(name)]\nexecutable = \"svc\"\n")
        #expect(throws: SystemdExportError.self) { try SystemdExport.files(for: manifest) }
        do {
            _ = try SystemdExport.files(for: manifest)
        } catch {
            #expect(error.service == name)
            #expect(error.code == .nameTaken)
        }
        let fits = try DeployFixture.manifest("[services.\(name.dropLast())]\nexecutable = \"svc\"\n")
        #expect(try SystemdExport.files(for: fits).count == 7) // its socket and service, the target, the supervisor, users, folders, secrets
    }
}
