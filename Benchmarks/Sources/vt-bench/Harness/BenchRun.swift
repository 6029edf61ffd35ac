import Foundation
import VerticalsWire

/// The whole run: every section asked for, in an order that keeps each from disturbing the
/// next (in-process codec first, the suite last), then the table and results.json.
struct BenchRun {
    let settings: BenchSettings

    func run() async {
        let startedAt = Date()
        let runStart = ContinuousClock.now
        let report = Report()
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        FileHandle.standardError.write(
            Data("vt-bench: \(settings.rounds) rounds, sections \(settings.sections.sorted()), in \(directory)\n".utf8))
        // How long each part took, under the table: what a user waits for.
        var lap = ContinuousClock.now
        func took(_ part: String) {
            let now = ContinuousClock.now
            report.note("\(part) took \(Format.number((now - lap).microseconds / 1_000_000)) s")
            lap = now
        }

        // A part that runs when any of `names` is asked for, and the time it took.
        func part(_ name: String, when names: String..., run body: () -> Void) {
            guard names.contains(where: settings.runs) else { return }
            body()
            took(name)
        }

        part("codec", when: "codec") { CodecBenchmark(settings: settings, report: report).run() }
        part("rpc", when: "rpc") {
            let rpc = RPCBenchmark(settings: settings, report: report, directory: directory)
            rpc.runLatency()
            rpc.runThroughput()
            rpc.runServerMemory()
        }
        // Parts of rpc; `BENCH_SECTIONS=contract-check` or `rpc-loops` runs one alone.
        part("contract check", when: "rpc", "contract-check") {
            ContractCheckBenchmark(settings: settings, report: report, directory: directory).run()
        }
        part("rpc loops", when: "rpc", "rpc-loops") {
            LoopsBenchmark(settings: settings, report: report, directory: directory).run()
        }
        // Parts of curves; `BENCH_SECTIONS=curves-payload`, `curves-connections` or `curves-services`
        // runs one alone.
        part("curves: in flight", when: "curves") {
            InFlightCurve(settings: settings, report: report, directory: directory).run()
        }
        part("curves: payload", when: "curves", "curves-payload") {
            PayloadCurve(settings: settings, report: report, directory: directory).run()
        }
        part("curves: connections", when: "curves", "curves-connections") {
            ConnectionsCurve(settings: settings, report: report, directory: directory).run()
        }
        if settings.runs("curves") || settings.runs("curves-services") {
            let loop = makeLoop("bench-services")
            await ServicesCurve(settings: settings, report: report, directory: directory, loop: loop).run()
            loop.shutdown()
            took("curves: services")
        }
        part("instructions", when: "instructions") {
            InstructionsBenchmark(settings: settings, report: report, directory: directory).run()
        }
        part("allocations", when: "allocations") { AllocationsBenchmark(settings: settings, report: report).run() }
        part("tcp", when: "tcp") { TCPBenchmark(settings: settings, report: report, directory: directory).run() }
        part("cli", when: "cli") { CLIBenchmark(settings: settings, report: report, directory: directory).run() }
        // `BENCH_SECTIONS=on-demand` or `after-settle` runs that part of supervisor alone.
        let onDemand = settings.runs("supervisor") || settings.runs("on-demand")
        let afterSettle = settings.runs("supervisor") || settings.runs("after-settle")
        if onDemand || afterSettle {
            if settings.runs("supervisor") {
                await KillToReady(settings: settings, report: report, directory: directory).run()
            }
            let loop = makeLoop("bench-on-demand")
            if onDemand {
                await OnDemandStart(settings: settings, report: report, directory: directory, loop: loop).run()
            }
            if afterSettle {
                await AfterSettle(settings: settings, report: report, directory: directory, loop: loop).run()
            }
            loop.shutdown()
            took("supervisor (restarts, on demand, after settle)")
        }
        if ["supervisor", "memory", "suite", "mixed", "upgrade", "replication"].contains(where: settings.runs) {
            let loop = makeLoop("bench-driver")
            let supervisor = SupervisorBenchmark(settings: settings, report: report, directory: directory, loop: loop)
            let suite = await supervisor.upRounds()
            let booking = SuiteBenchmark(settings: settings, report: report, directory: directory, loop: loop)
            if settings.runs("supervisor") { await supervisor.idleWindow(suite) }
            if settings.runs("memory") { await IdleConnections(settings: settings, report: report).run(suite) }
            if settings.runs("suite") || settings.runs("mixed") || settings.runs("upgrade") {
                progress("suite: registering patients and a clinic open around the clock")
                let patients = max(SuiteBenchmark.clientCounts.max()!, MixedLoad.clients)
                let setup = await Setup.make(suite: suite, loop: loop, patients: patients)
                // One source of slots for every section that books, so no two bookings overlap.
                let slots = BookingSlots(now: Timestamp(secondsSinceEpoch: Int64(Date().timeIntervalSince1970)))
                if settings.runs("suite") {
                    await booking.run(suite, setup: setup, suiteSlots: slots)
                }
                if settings.runs("mixed") {
                    await MixedLoad(settings: settings, report: report, loop: loop).run(
                        suite, setup: setup, slots: slots)
                }
                // Last: it replaces appointments' process, which the sections before measure.
                if settings.runs("upgrade") {
                    await UpgradeLatency(settings: settings, report: report, loop: loop).run(
                        suite, setup: setup, slots: slots)
                }
            }
            await suite.down()
            if settings.runs("suite") {
                await TracedBooking(bench: booking).run()
            }
            if settings.runs("replication") {
                await ReplicatedBooking(bench: booking).run()
            }
            if settings.runs("memory") {
                await FiftyServices(settings: settings, report: report, directory: directory, loop: loop).run()
            }
            loop.shutdown()
            took("suites (up rounds, idle window, memory, suite, mixed, upgrade, replication)")
        }
        report.note("the whole run took \(Format.number((ContinuousClock.now - runStart).microseconds / 1_000_000)) s")

        do {
            try FileManager.default.createDirectory(atPath: settings.outputDirectory, withIntermediateDirectories: true)
            let path = "\(settings.outputDirectory)/results.json"
            try report.write(to: path, settings: settings, startedAt: startedAt)
            FileHandle.standardError.write(Data("vt-bench: wrote \(path)\n".utf8))
        } catch {
            fail("cannot write results.json: \(error)")
        }
        print(report.table())
    }

    /// A short fresh folder under /tmp (Unix socket paths hold at most 107 bytes).
    static func temporaryDirectory() -> String {
        var template = Array("/tmp/vt.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { fail("cannot create a temporary directory") }
        return String(cString: made)
    }
}
