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

    @Argument(help: "The service, e.g. clinics.") var name: String
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
                print("\(status.name): \(status.state.wireName)")
                return
            }
            let deadline = ContinuousClock.now + .milliseconds(Int64(wait * 1000))
            while ![.ready, .failed, .stopped].contains(status.state) {
                guard ContinuousClock.now < deadline else {
                    throw CLIError(
                        status: 75,
                        "\(name) is still \(status.state.wireName) after \(StatusCommand.oneDecimal(wait))s"
                            + (status.statusText.isEmpty ? "" : " (\(status.statusText))")
                            + "; `svc-supervisor status \(name)` shows why, `svc-supervisor logs \(name)` what it said")
                }
                try await Task.sleep(for: .milliseconds(100))
                let list = try await ControlClient.call(Supervisor.status, Empty(), location: location)
                guard let current = list.services.first(where: { $0.name == name }) else {
                    throw CLIError(status: 1, "\(name) left the suite while starting (a reload removed it)")
                }
                status = current
            }
            guard status.state == .ready else {
                let why = [status.lastExit, status.statusText].filter { !$0.isEmpty }.joined(separator: "; ")
                throw CLIError(
                    status: 1, "\(name) \(status.state.wireName)" + (why.isEmpty ? "" : ": \(why)")
                        + "; `svc-supervisor logs \(name)` shows what it said")
            }
            print("\(status.name): ready" + (status.pid.map { " (pid \($0))" } ?? ""))
        }
    }
}

/// `svc-supervisor stop NAME`: stop a service and keep it down.
struct StopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop", abstract: "Stop a service (stop signal, SIGKILL after its stop timeout) and keep it down.")

    @Argument(help: "The service, e.g. clinics.") var name: String
    @OptionGroup var runDirectory: RunDirectoryOption

    func run() async throws {
        try await ControlClient.reporting {
            let status = try await ControlClient.call(
                Supervisor.stop, .init(name: name), location: runDirectory.location)
            print("\(status.name): \(status.state.wireName)" + (status.lastExit.isEmpty ? "" : " (\(status.lastExit))"))
        }
    }
}

/// `svc-supervisor restart NAME`: stop a service, then start it again.
struct RestartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restart", abstract: "Stop a service, then start it again.")

    @Argument(help: "The service, e.g. clinics.") var name: String
    @OptionGroup var runDirectory: RunDirectoryOption

    func run() async throws {
        try await ControlClient.reporting {
            let status = try await ControlClient.call(
                Supervisor.restart, .init(name: name), location: runDirectory.location)
            print("\(status.name): \(status.state.wireName)" + (status.pid.map { " pid \($0)" } ?? ""))
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
                print("\(label): \(names.isEmpty ? "-" : names.joined(separator: ", "))")
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
            print("the suite is down")
        }
    }
}
