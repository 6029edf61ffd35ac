import ArgumentParser
import IOInterface

/// `svc-supervisor start NAME`: start a stopped or failed service.
struct StartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start", abstract: "Start a stopped or failed service (once its dependencies are ready).")

    @Argument(help: "The service, e.g. clinics.") var name: String
    @OptionGroup var runDirectory: RunDirectoryOption

    func run() async throws {
        try await ControlClient.reporting {
            let status = try await ControlClient.call(
                Supervisor.start, .init(name: name), runDirectory: runDirectory.path)
            print("\(status.name): \(status.state.wireName)")
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
                Supervisor.stop, .init(name: name), runDirectory: runDirectory.path)
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
                Supervisor.restart, .init(name: name), runDirectory: runDirectory.path)
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
            let result = try await ControlClient.call(Supervisor.reload, Empty(), runDirectory: runDirectory.path)
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
                Supervisor.down, Empty(), runDirectory: runDirectory.path, timeout: .seconds(300))
            print("the suite is down")
        }
    }
}
