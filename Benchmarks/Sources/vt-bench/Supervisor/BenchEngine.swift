import Foundation
import VerticalsEventLoop
import VerticalsSupervisor
import VerticalsSupervisorClient

/// The supervision engine in this process, on a loop of its own, with its state changes
/// recorded: the restart and on-demand rows time the supervisor on its own clock.
enum BenchEngine {
    /// Starts an engine for `services` in `directory`/engine; stops the run if it cannot start.
    static func start(
        _ services: [ServiceSpec], settings: BenchSettings, directory: String
    ) async -> (SupervisorEngine, EngineEvents, EventLoop) {
        let loop = makeLoop("bench-engine")
        let engine = SupervisorEngine(
            manifest: Manifest(services: services),
            configuration: EngineConfiguration(
                runDirectory: RunDirectory("\(directory)/engine"), execShim: "\(settings.binDirectory)/vt-exec",
                programDirectory: settings.binDirectory,
                environment: [
                    "PATH": "/usr/bin:/bin", "VT_BENCH_TAG": Subprocess.tag, "VERTICALS_LOG_LEVEL": "warning",
                    "VERTICALS_PASS_ENVIRONMENT": "VT_BENCH_TAG VERTICALS_LOG_LEVEL OTEL_*",
                ]),
            loop: loop)
        let events = EngineEvents()
        do {
            try await engine.observe { event in events.append(event) }
            try await engine.start()
        } catch {
            fail("the supervision engine did not start: \(error)")
        }
        return (engine, events, loop)
    }

    /// The manifest's `names`, as it declares them; stops the run if the manifest has problems.
    static func services(_ names: Set<String>, settings: BenchSettings) -> [ServiceSpec] {
        let (manifest, problems) = ManifestParser.load(path: settings.manifest, binDirectory: settings.binDirectory)
        guard problems.isEmpty else { fail("the manifest has problems: \(problems)") }
        return manifest.services.filter { names.contains($0.name) }
    }
}

/// The baseline of the restart and on-demand rows: a vertical's daemon started directly (no
/// supervisor, no shim) to its READY=1 on a notify socket of ours.
struct BareStart {
    let settings: BenchSettings
    let directory: String
    let service: String

    /// Milliseconds from the start to READY=1; then kills the daemon.
    func toReady() -> Double {
        let bareDirectory = "\(directory)/bare"
        try? FileManager.default.createDirectory(atPath: "\(bareDirectory)/sockets", withIntermediateDirectories: true)
        let notify = NotifyReceiver(path: "\(bareDirectory)/notify.sock")
        defer { notify.close() }
        unlink("\(bareDirectory)/sockets/\(service).sock")
        let start = ContinuousClock.now
        let process = Subprocess.start(
            "\(settings.binDirectory)/svc-\(service)", [],
            environment: [
                "NOTIFY_SOCKET": notify.path, "VERTICALS_SOCKET_DIR": "\(bareDirectory)/sockets",
                "STATE_DIRECTORY": "\(bareDirectory)/state", "VERTICALS_LOG_LEVEL": "warning",
            ])
        guard notify.waitForReady(timeout: .seconds(10)) else { fail("svc-\(service) started bare never sent READY=1") }
        let elapsed = ContinuousClock.now - start
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return elapsed.microseconds / 1000
    }
}
