import Foundation
import IOInterface
import VerticalsClient
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsSupervisor
import VerticalsSupervisorClient

/// Section 4, on-demand start: with clinics declared `start = "on-demand"`, the
/// time from a caller's connection to its socket (held by the engine, nobody serving) to the
/// first answer, `clinics.nearest`, from the process that connection started; against a bare
/// start of the same daemon to READY=1, interleaved sample by sample. After each sample the
/// daemon is sent SIGTERM: it drains and exits 0, which the engine takes as a clean stop that
/// waits for the next caller (state `idle`). Target ≤ 1.1× in the median, the spread shown.
struct OnDemandStart {
    let settings: BenchSettings
    let report: Report
    let directory: String
    let loop: EventLoop
    var service = "clinics"

    /// The first answer, at most, against a bare start to READY=1.
    static let target = 1.1

    func run() async {
        var services = BenchEngine.services([service, "identity"], settings: settings)
        for index in services.indices where services[index].name == service { services[index].start = .onDemand }
        let (engine, events, engineLoop) = await BenchEngine.start(services, settings: settings, directory: directory)
        let sockets = SocketDirectory(RunDirectory("\(directory)/engine").socketDirectory)
        var firstAnswers: [Double] = []
        var bare: [Double] = []
        _ = await events.wait(for: service, .idle, count: 1)
        for sample in 1...settings.kills {
            if sample % 5 == 1 { progress("on-demand connect → first answer \(sample)/\(settings.kills)") }
            let client = ServiceClient(loop: loop, sockets: sockets, defaultTimeout: .seconds(20))
            let connected = ContinuousClock.now
            do {
                _ = try await client.call(Clinics.nearest, .init(latitude: 51.5, longitude: -0.12))
            } catch {
                fail("clinics.nearest to an on-demand clinics failed: \(error)")
            }
            firstAnswers.append((ContinuousClock.now - connected).microseconds / 1000)
            client.close()
            guard let pid = await events.wait(for: service, .ready, count: sample).pid else {
                fail("\(service) is ready without a pid")
            }
            kill(pid, SIGTERM)
            _ = await events.wait(for: service, .idle, count: sample + 1)
            bare.append(BareStart(settings: settings, directory: directory, service: service).toReady())
        }
        await engine.stopAll()
        await engine.close()
        engineLoop.shutdown()
        report.add(
            "supervisor", "on demand: connect → first answer (\(service), n=\(settings.kills))", unit: "ms",
            ours: firstAnswers, baselineName: "bare start→READY", baseline: bare, ratioName: "first answer/bare",
            target: .atMost(Self.target))
    }
}
