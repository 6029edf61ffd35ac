import ArgumentParser
import VerticalsContract
import VerticalsWire

/// `svc-supervisor start NAME`: start a stopped or failed service and wait until it is ready
/// or has failed (bounded by `--wait`), saying which; `--no-wait` returns at once.
struct StartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start", abstract: "Start a stopped or failed service (once its dependencies are ready).",
        discussion: """
            Waits until the service is ready or has failed (a crash in between is
            restarted as usual) and says which.

            Exit status: 0 ready (or asked, with --no-wait), 1 failed or stopped
            meanwhile, 64 for an unknown service, 69 when no supervisor answers,
            75 (EX_TEMPFAIL) still not ready when --wait ends.
            """)

    @Argument(help: "The service, as the manifest names it.") var name: String
    @OptionGroup var runDirectory: RunDirectoryOption

    @Flag(name: .long, help: "Return as soon as the supervisor has the request, without waiting for ready.")
    var noWait = false

    @Option(name: .long, help: "At most this many seconds to wait for ready or failed.")
    var wait: Double = 120

    func validate() throws {
        guard wait > 0 else { throw ValidationError("--wait must be positive") }
    }

    func run() async throws {
        try await ControlClient.reporting {
            let location = runDirectory.location
            var status = try await ControlClient.call(Supervisor.start, .init(name: name), location: location)
            if noWait {
                Terminal.print("\(status.name): \(status.state.wireName)")
                return
            }
            let deadline = ContinuousClock.now + .milliseconds(Int64(wait * 1000))
            while ![.ready, .failed, .stopped].contains(status.state) {
                guard ContinuousClock.now < deadline else {
                    let why = status.statusText.isEmpty ? "" : " (\(status.statusText))"
                    let seconds = StatusCommand.oneDecimal(wait)
                    let next = "`svc-supervisor status \(name)` shows why, `svc-supervisor logs \(name)` what it said"
                    throw CLIError(
                        .timedOut, status: 75,
                        "\(name) is still \(status.state.wireName) after \(seconds)s\(why); \(next)")
                }
                try await Task.sleep(for: .milliseconds(100))
                let list = try await ControlClient.call(Supervisor.status, Empty(), location: location)
                guard let current = list.services.first(where: { $0.name == name }) else {
                    throw CLIError(.failed, status: 1, "\(name) left the suite while starting (a reload removed it)")
                }
                status = current
            }
            guard status.state == .ready else {
                let why = [status.lastExit, status.statusText].filter { !$0.isEmpty }.joined(separator: "; ")
                throw CLIError(
                    .failed, status: 1,
                    "\(name) \(status.state.wireName)" + (why.isEmpty ? "" : ": \(why)")
                        + "; `svc-supervisor logs \(name)` shows what it said")
            }
            let pid = status.pid.map { " (pid \($0))" } ?? ""
            Terminal.print("\(status.name): ready\(pid)")
        }
    }
}

/// `svc-supervisor stop NAME`: stop a service and keep it down.
struct StopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop", abstract: "Stop a service (stop signal, SIGKILL after its stop timeout) and keep it down.")

    @Argument(help: "The service, as the manifest names it.") var name: String
    @OptionGroup var runDirectory: RunDirectoryOption

    func run() async throws {
        try await ControlClient.reporting {
            let status = try await ControlClient.call(
                Supervisor.stop, .init(name: name), location: runDirectory.location)
            let exit = status.lastExit.isEmpty ? "" : " (\(status.lastExit))"
            Terminal.print("\(status.name): \(status.state.wireName)\(exit)")
        }
    }
}

/// `svc-supervisor restart NAME`: stop a service, then start it again.
struct RestartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restart", abstract: "Stop a service, then start it again.")

    @Argument(help: "The service, as the manifest names it.") var name: String
    @OptionGroup var runDirectory: RunDirectoryOption

    func run() async throws {
        try await ControlClient.reporting {
            let status = try await ControlClient.call(
                Supervisor.restart, .init(name: name), location: runDirectory.location)
            let pid = status.pid.map { " pid \($0)" } ?? ""
            Terminal.print("\(status.name): \(status.state.wireName)\(pid)")
        }
    }
}

/// `svc-supervisor reload`: re-read the manifest and apply the difference (as SIGHUP does).
struct ReloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "Re-read the manifest: start added services, stop removed ones, restart changed ones.")

    @OptionGroup var runDirectory: RunDirectoryOption

    func run() async throws {
        try await ControlClient.reporting {
            let result = try await ControlClient.call(Supervisor.reload, Empty(), location: runDirectory.location)
            for (label, names) in [
                ("added", result.added), ("removed", result.removed), ("changed", result.changed),
                ("unchanged", result.unchanged),
            ] {
                Terminal.print("\(label): \(names.isEmpty ? "-" : names.joined(separator: ", "))")
            }
        }
    }
}

/// `svc-supervisor down`: stop every service in reverse dependency order; the supervisor exits.
struct DownCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "down", abstract: "Stop every service in reverse dependency order, then the supervisor.")

    @OptionGroup var runDirectory: RunDirectoryOption

    func run() async throws {
        try await ControlClient.reporting {
            _ = try await ControlClient.call(
                Supervisor.down, Empty(), location: runDirectory.location, timeout: .seconds(300))
            Terminal.print("the suite is down")
        }
    }
}

/// `svc-supervisor upgrade NAME [--executable PATH]`: start a new build of a ready service on the
/// socket the supervisor holds and hand over to it without dropping a request
/// (`supervisor.upgrade`); prints both pids and how long callers waited in the backlog.
struct UpgradeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade",
        abstract: "Hand a ready service over to a new process (a new build) without dropping a request.",
        discussion: """
            The new process starts on the same socket and prepares while the old one serves;
            then the old one stops accepting, finishes its requests and releases the store, and
            the new one opens it (a build that migrates the store backs it up first) and serves
            the callers that waited in the backlog meanwhile. Without --executable the manifest's
            program starts again: a new build put in its place.

            A new process that fails before the hand-over leaves the old one serving; one that
            fails after it is replaced by the previous executable, its store backup put back.

            A service still starting is upgraded once it is ready (within a minute).

            First the supervisor judges the new build as can-i-deploy does, against the builds
            that run beside it, and refuses one that breaks a running caller or callee, naming
            each edge; --force upgrades anyway. A build that cannot describe itself is upgraded,
            and the service's log says it was not checked.

            Exit status: 0 upgraded, 1 not upgraded (why is printed), 2 the new build breaks a
            running caller or callee, 64 unknown service, 65 the program cannot be run, 69 no
            supervisor answers, 75 the service is not ready or being upgraded or restored already.
            """)

    @Argument(help: "The service, as the manifest names it.") var name: String
    @Option(name: .long, help: "The new build's program: a path, or a name looked up as the manifest's executable.")
    var executable: String?
    @Flag(help: "Upgrade even when the new build breaks a running caller or callee.") var force = false
    @OptionGroup var runDirectory: RunDirectoryOption

    func run() async throws {
        try await ControlClient.reporting {
            // A path is the supervisor's to resolve from its own folder: make it absolute here.
            let program = executable.map { path in
                path.hasPrefix("/") || !path.contains("/") ? path : ProgramPaths.currentDirectory() + "/" + path
            }
            try await waitWhileStarting(location: runDirectory.location)
            // The new process's readiness and the old one's drain, each bounded by its manifest timeout.
            let result = try await ControlClient.call(
                Supervisor.upgrade, .init(name: name, executable: program, force: force),
                location: runDirectory.location,
                timeout: .seconds(600), statuses: [.conflict: 75, .invalidInput: 65], reasons: ["breaksRunningPeers": 2]
            )
            Terminal.print(
                "\(result.name): upgraded, pid \(result.oldPid) → pid \(result.newPid) (\(result.executable))")
            let prepared = Self.seconds(result.prepareSeconds)
            let (gap, drain) = (Self.seconds(result.gapSeconds), Self.seconds(result.drainSeconds))
            Terminal.print(
                "  prepared in \(prepared) while pid \(result.oldPid) served; callers waited \(gap) (drain \(drain))")
            if let backup = result.backup {
                Terminal.print("  the store was migrated; its backup from before: \(backup)")
            }
        }
    }

    /// A service on its way up (just restarted, waiting for a dependency) is upgraded once it is
    /// ready, within a minute; any other state is the supervisor's to refuse.
    private func waitWhileStarting(location: SuiteLocation) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let list = try await ControlClient.call(Supervisor.status, Empty(), location: location)
            guard let state = list.services.first(where: { $0.name == name })?.state,
                [.starting, .waiting, .backoff].contains(state)
            else { return }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// "83 ms", "1.2 s".
    static func seconds(_ value: Double) -> String {
        value < 1 ? "\(Int((value * 1000).rounded())) ms" : "\(StatusCommand.oneDecimal(value)) s"
    }
}
