import Foundation
import VerticalsEventLoop

/// Section 6 (memory): `svc-supervisor up` on a manifest of fifty services
/// (identity and forty-nine svc-clinics that depend on it, each with its own socket, log,
/// state folder and store), its memory once all are ready (private dirty, what is judged, and
/// PSS; RSS and resident text beside), beside the floor of the runtime: `vt-sleep`, a Swift program linked the same way
/// that only sleeps, measured in the same round. The target is ≤ 4 MiB private dirty with fifty.
struct FiftyServices {
    let settings: BenchSettings
    let report: Report
    let directory: String
    let loop: EventLoop
    static let count = 50
    /// The supervisor's private dirty memory with fifty services, at most (MiB).
    static let target = 4.0

    func run() async {
        let manifest = "\(directory)/fifty.toml"
        do {
            try Self.manifest(count: Self.count).write(toFile: manifest, atomically: true, encoding: .utf8)
        } catch {
            fail("cannot write the memory section's manifests in \(directory): \(error)")
        }
        let floorProgram = BenchSettings.besideThisProgram("vt-sleep")
        var supervisor: [ProcessStats.Memory] = []
        var floor: [ProcessStats.Memory] = []
        for round in 1...settings.rounds {
            progress("svc-supervisor up with \(Self.count) services, round \(round)/\(settings.rounds)")
            let sleeper = Subprocess.start(floorProgram, [], environment: [:])
            let suite = await SupervisedSuite.up(
                settings, manifest: manifest, runDirectory: "\(directory)/fifty\(round)", loop: loop)
            // Past start-up's last allocations (the readiness replies, the first status).
            try? await Task.sleep(for: .seconds(1))
            guard let resident = ProcessStats.memory(suite.process.processIdentifier),
                let bare = ProcessStats.memory(sleeper.processIdentifier)
            else { fail("svc-supervisor or vt-sleep ended during the memory round") }
            supervisor.append(resident)
            floor.append(bare)
            Subprocess.stop(sleeper)
            await suite.down()
        }
        report.addMemory("memory", "svc-supervisor, \(Self.count) services ready", supervisor, target: Self.target)
        report.add(
            "memory", "  private dirty against the sleeping Swift program", unit: "MiB",
            ours: supervisor.map { $0.privateDirty / 1024 }, baselineName: "floor",
            baseline: floor.map { $0.privateDirty / 1024 }, ratioName: "ours/floor")
        report.addMemory("memory", "vt-sleep, a sleeping Swift program (the floor)", floor)
    }

    /// Identity and `count - 1` svc-clinics that depend on it, everything else the defaults.
    static func manifest(count: Int) -> String {
        var text = "# \(count) services for the memory section (vt-bench)\n"
        text += "\n[services.identity]\nexecutable = \"svc-identity\"\n"
        for index in 1..<count {
            text +=
                "\n[services.clinics\(String(format: "%02d", index))]\nexecutable = \"svc-clinics\"\ndepends_on = [\"identity\"]\n"
        }
        return text
    }
}
