import Foundation
import VerticalsEventLoop

/// Section 6 (memory): `svc-supervisor up` on a manifest of fifty services
/// (identity and forty-nine svc-clinics that depend on it, each with its own socket, log,
/// state folder and store), its resident
/// memory once all are ready, split into anonymous pages and mapped files, beside the floor of
/// the runtime: `vt-sleep`, a Swift program linked the same way that only sleeps, measured in
/// the same round. The target is ≤ 12 MiB with fifty services (s6 needs 7.3 MiB, runit 5.5 MiB).
struct FiftyServices {
    let settings: BenchSettings
    let report: Report
    let directory: String
    let loop: EventLoop
    static let count = 50

    func run() async {
        let manifest = "\(directory)/fifty.toml"
        do {
            try Self.manifest(count: Self.count).write(toFile: manifest, atomically: true, encoding: .utf8)
        } catch {
            fail("cannot write \(manifest): \(error)")
        }
        let floorProgram = BenchSettings.besideThisProgram("vt-sleep")
        var supervisor: [Double] = []
        var anonymous: [Double] = []
        var floor: [Double] = []
        for round in 1...settings.rounds {
            progress("svc-supervisor up with \(Self.count) services, round \(round)/\(settings.rounds)")
            let sleeper = Subprocess.start(floorProgram, [], environment: [:])
            let suite = await SupervisedSuite.up(
                settings, manifest: manifest, runDirectory: "\(directory)/fifty\(round)", loop: loop)
            // Past start-up's last allocations (the readiness replies, the first status).
            try? await Task.sleep(for: .seconds(1))
            guard let resident = ProcessStats.residentKiB(suite.process.processIdentifier),
                let bare = ProcessStats.residentKiB(sleeper.processIdentifier)
            else { fail("svc-supervisor or vt-sleep ended during the memory round") }
            supervisor.append(resident.total / 1024)
            anonymous.append(resident.anonymous / 1024)
            floor.append(bare.total / 1024)
            Subprocess.stop(sleeper)
            await suite.down()
        }
        report.add(
            "memory", "svc-supervisor RSS, \(Self.count) services ready (target ≤ 12 MiB)", unit: "MiB",
            ours: supervisor, baselineName: "sleeping Swift program", baseline: floor, ratioName: "ours/floor")
        report.add("memory", "  of which anonymous (heap, stacks, runtime)", unit: "MiB", Summary(anonymous))
        let median = Summary(supervisor).median
        report.note(
            "svc-supervisor with \(Self.count) services: \(Format.number(median)) MiB "
                + (median <= 12 ? "meets" : "misses") + " the 12 MiB target")
    }

    /// Identity and `count - 1` svc-clinics that depend on it, everything else the defaults.
    static func manifest(count: Int) -> String {
        var text = "# \(count) services for the memory section (vt-bench)\n"
        text += "\n[services.identity]\nexecutable = \"svc-identity\"\n"
        for index in 1..<count {
            text += "\n[services.clinics\(String(format: "%02d", index))]\nexecutable = \"svc-clinics\"\ndepends_on = [\"identity\"]\n"
        }
        return text
    }
}
