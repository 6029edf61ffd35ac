import Foundation
import IOInterface
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsWire

/// The real thing: `svc-supervisor up` on the suite's manifest, as a child process in its own
/// run directory, watched and stopped through its control socket.
final class SupervisedSuite {
    let runDirectory: String
    let process: Process
    let loop: EventLoop
    let control: ServiceClient
    /// Time from starting `svc-supervisor up` to every service reporting ready.
    private(set) var upToReady: Duration = .zero

    private init(runDirectory: String, process: Process, loop: EventLoop) {
        self.runDirectory = runDirectory
        self.process = process
        self.loop = loop
        control = ServiceClient(loop: loop, sockets: SocketDirectory(runDirectory), defaultTimeout: .seconds(5))
    }

    /// The verticals' socket folder.
    var sockets: SocketDirectory { SocketDirectory("\(runDirectory)/sockets") }

    /// Starts the suite (the suite's manifest, or `manifest`; `environment` added to what every
    /// service inherits) and returns once every service is ready; the run stops when they are not
    /// within `readyWithin`.
    static func up(
        _ settings: BenchSettings, manifest: String? = nil, environment: [String: String] = [:], runDirectory: String,
        loop: EventLoop, readyWithin: Duration = .seconds(60)
    ) async -> SupervisedSuite {
        let start = ContinuousClock.now
        let process = Subprocess.start(
            "\(settings.binDirectory)/svc-supervisor",
            ["up", "--manifest", manifest ?? settings.manifest, "--run-dir", runDirectory],
            environment: environment.merging([
                "VERTICALS_LOG_LEVEL": "warning",
                // The supervisor passes its services only the variables this names.
                "VERTICALS_PASS_ENVIRONMENT":
                    (["VT_BENCH_TAG", "VERTICALS_LOG_LEVEL", "OTEL_*"] + environment.keys.sorted())
                    .joined(separator: " "),
            ]) { ours, _ in ours })
        let suite = SupervisedSuite(runDirectory: runDirectory, process: process, loop: loop)
        let deadline = start + readyWithin
        while ContinuousClock.now < deadline {
            guard process.isRunning else { fail("svc-supervisor up exited with status \(process.terminationStatus)") }
            if let services = try? await suite.control.call(Supervisor.status, Empty(), timeout: .seconds(2)).services,
                !services.isEmpty, services.allSatisfy(\.ready)
            {
                suite.upToReady = ContinuousClock.now - start
                return suite
            }
            try? await Task.sleep(for: .milliseconds(2))
        }
        fail("the suite was not ready \(readyWithin) after svc-supervisor up (see \(runDirectory)/logs)")
    }

    /// Every service's status.
    func status() async -> [Supervisor.ServiceStatus] {
        do {
            return try await control.call(Supervisor.status, Empty()).services
        } catch {
            fail("svc-supervisor status failed: \(error)")
        }
    }

    /// The pid of each running service, by name.
    func pids() async -> [String: Int32] {
        var pids: [String: Int32] = [:]
        for service in await status() {
            if let pid = service.pid { pids[service.name] = Int32(pid) }
        }
        return pids
    }

    /// `svc-supervisor down`, then waits for the supervisor to exit (SIGKILL after 30 s).
    func down() async {
        _ = try? await control.call(Supervisor.down, Empty(), timeout: .seconds(30))
        control.close()
        let deadline = ContinuousClock.now + .seconds(30)
        while process.isRunning && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        if process.isRunning { Subprocess.stop(process) }
        process.waitUntilExit()
    }
}
