import ArgumentParser
import Glibc
import ServiceKit
import SupervisorEngine

/// `svc-supervisor up [--manifest deploy/suite.toml] [--run-dir .run]`: the daemon, in the foreground.
struct UpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "up",
        abstract: "Start every service of the manifest and supervise them in the foreground.",
        discussion: """
            Ctrl-C or SIGTERM stops every service in reverse dependency order and exits 0.
            SIGHUP (or `svc-supervisor reload`) re-reads the manifest and applies only the difference.
            """)

    @Option(name: .long, help: "The suite manifest.") var manifest = "deploy/suite.toml"
    @OptionGroup var runDirectory: RunDirectoryOption

    func run() async throws {
        LoggingBootstrap.bootstrap(environment: ProcessEnvironment.current)
        let programs = Self.ownDirectory()
        let configuration = EngineConfiguration(
            runDirectory: RunDirectory(runDirectory.path), execShim: "\(programs)/vt-exec", programDirectory: programs)
        let path = manifest
        let status = await SupervisorDaemon.run(configuration: configuration) {
            try ManifestLoading.load(path: path, programDirectory: programs)
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// The folder svc-supervisor runs from, where vt-exec and the verticals are built.
    static func ownDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "." }
        let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    }
}
