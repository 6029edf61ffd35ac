import Foundation
import VerticalsClient
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsWire

/// Section `replication`, what replication costs a booking: one client books for a slice through
/// a fresh supervised suite whose every store Litestream copies to a folder replica (the manifest's
/// `[defaults] replica`, a 1 s sync interval), against a fresh suite of the same manifest with no
/// replica, alternating round by round: the booking's p50 and p99, in the steady state: once every
/// Litestream has taken its first snapshot of its store and made its first compaction, which a
/// fresh Litestream does in its first seconds and then only at start. Beside them, each vertical's
/// Litestream: its CPU per booking over the slice and its resident memory at the end. Skipped,
/// with a note, when no `litestream` is on PATH (`scripts/install-deps.sh --test` installs it).
struct ReplicatedBooking {
    /// The suite section whose booking loop this one times, with its settings, report, run
    /// directory and loop.
    let bench: SuiteBenchmark
    var slice: Duration = .seconds(3)
    /// The goal of both rows: replication costs a booking at most a tenth.
    static let target = 1.1

    func run() async {
        guard let litestream = Self.litestream else {
            bench.report.note(
                "replication: no litestream on PATH (scripts/install-deps.sh --test installs it); rows skipped")
            return
        }
        guard replicatedManifest(name: "probe") != nil else {
            bench.report.note(
                "replication: \(bench.settings.manifest) has no [defaults] table to add a replica to; rows skipped")
            return
        }
        var plain: [Booked] = []
        var replicated: [Booked] = []
        var cpuPerBooking: [String: [Double]] = [:]
        var residentMiB: [String: [Double]] = [:]
        for round in 1...bench.settings.rounds {
            progress("booking with and without replication, round \(round)/\(bench.settings.rounds)")
            plain.append(await book(manifest: nil, environment: [:], name: "unreplicated\(round)"))
            // A replica of its own per suite: a fresh suite's stores would come back from the last one's.
            guard let manifest = replicatedManifest(name: "replicated\(round)") else {
                fail("replication: cannot write a replicated manifest in \(bench.directory)")
            }
            let booked = await book(
                manifest: manifest, environment: ["VERTICALS_LITESTREAM": litestream], name: "replicated\(round)")
            replicated.append(booked)
            for (service, seconds) in booked.litestreamCPU {
                cpuPerBooking[service, default: []].append(seconds * 1_000_000 / Double(max(booked.count, 1)))
            }
            for (service, mebibytes) in booked.litestreamResident {
                residentMiB[service, default: []].append(mebibytes)
            }
        }
        for percentile in [50.0, 99.0] {
            bench.report.add(
                "replication", "book p\(Int(percentile)), 1 client, every store replicated to a folder", unit: "ms",
                ours: replicated.map { SuiteBenchmark.percentile($0.latencies, percentile) / 1000 },
                baselineName: "no replica",
                baseline: plain.map { SuiteBenchmark.percentile($0.latencies, percentile) / 1000 },
                ratioName: "replicated/plain", target: .atMost(Self.target))
        }
        for service in cpuPerBooking.keys.sorted() {
            bench.report.add(
                "replication", "\(service)'s Litestream CPU per booking", unit: "µs",
                Summary(cpuPerBooking[service] ?? []))
            bench.report.add(
                "replication", "\(service)'s Litestream resident memory", unit: "MiB",
                Summary(residentMiB[service] ?? []))
        }
    }

    /// What one fresh suite's slice of bookings came to.
    struct Booked {
        var latencies: [Double]
        var count: Int
        /// Each vertical's Litestream: CPU seconds over the slice.
        var litestreamCPU: [String: Double] = [:]
        /// Each vertical's Litestream: resident MiB at the slice's end.
        var litestreamResident: [String: Double] = [:]
    }

    /// A fresh suite on `manifest` (the suite's own when nil), one patient, one client booking for
    /// ``slice`` after a warm-up.
    private func book(manifest: String?, environment: [String: String], name: String) async -> Booked {
        let run = "\(bench.directory)/\(name)"
        let suite = await SupervisedSuite.up(
            bench.settings, manifest: manifest, environment: environment, runDirectory: run, loop: bench.loop)
        let setup = await Setup.make(suite: suite, loop: bench.loop, patients: 1)
        let slots = BookingSlots(now: Timestamp(secondsSinceEpoch: Int64(Date().timeIntervalSince1970)))
        let client = ServiceClient(loop: bench.loop, sockets: suite.sockets, defaultTimeout: .seconds(10))
        _ = await bench.book(clients: [client], setup: setup, slots: slots, for: .milliseconds(300))
        let copiers = manifest == nil ? [:] : await Self.litestreams(of: run)
        if manifest != nil, await !Self.settled(replicas: "\(bench.directory)/\(name)-replicas", count: copiers.count) {
            bench.report.note(
                "replication: \(name)'s replicas had no first compaction within a minute; measured anyway")
        }
        let before = copiers.compactMapValues { ProcessStats.cpuSeconds($0) }
        let measured = await bench.book(clients: [client], setup: setup, slots: slots, for: slice)
        var booked = Booked(latencies: measured.latencies, count: measured.latencies.count)
        for (service, pid) in copiers {
            if let start = before[service], let end = ProcessStats.cpuSeconds(pid) {
                booked.litestreamCPU[service] = end - start
            }
            if let memory = ProcessStats.memory(pid) { booked.litestreamResident[service] = memory.rss / 1024 }
        }
        client.close()
        await suite.down()
        return booked
    }

    /// The suite's manifest with a folder replica `name-replicas` in its `[defaults]`, written
    /// beside the runs; nil when the manifest has no `[defaults]` table.
    private func replicatedManifest(name: String) -> String? {
        guard let text = try? String(contentsOfFile: bench.settings.manifest, encoding: .utf8),
            text.contains("\n[defaults]\n")
        else { return nil }
        let replicas = "\(bench.directory)/\(name)-replicas"
        try? FileManager.default.createDirectory(atPath: replicas, withIntermediateDirectories: true)
        let line = "replica = { type = \"folder\", path = \"\(replicas)\", sync_interval = \"1s\" }"
        let path = "\(bench.directory)/\(name).toml"
        let replicated = text.replacingOccurrences(of: "\n[defaults]\n", with: "\n[defaults]\n\(line)\n")
        guard (try? replicated.write(toFile: path, atomically: true, encoding: .utf8)) != nil else { return nil }
        return path
    }

    /// Each replicated vertical's Litestream in run directory `run`, by service: the processes
    /// whose command line names `run/replicas/NAME/`, once every one runs (a minute at most).
    private static func litestreams(of run: String) async -> [String: Int32] {
        let deadline = ContinuousClock.now + .seconds(60)
        var found: [String: Int32] = [:]
        repeat {
            found = [:]
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                guard let pid = Int32(entry),
                    let command = try? String(contentsOfFile: "/proc/\(entry)/cmdline", encoding: .utf8),
                    command.hasPrefix(litestream ?? "litestream") || command.contains("/litestream\0"),
                    let range = command.range(of: "\(run)/replicas/")
                else { continue }
                let service = command[range.upperBound...].prefix { $0 != "/" }
                found[String(service)] = pid
            }
            let replicated = (try? FileManager.default.contentsOfDirectory(atPath: "\(run)/replicas"))?.count ?? 0
            if replicated > 0, found.count >= replicated { return found }
            try? await Task.sleep(for: .milliseconds(50))
        } while ContinuousClock.now < deadline
        return found
    }

    /// Whether `count` stores' replicas under `replicas` have their first compaction (a file in an
    /// `ltx/1` folder; the snapshot comes before it), waiting a minute at most.
    private static func settled(replicas: String, count: Int) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        repeat {
            let compacted = (FileManager.default.enumerator(atPath: replicas)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".ltx") && $0.split(separator: "/").dropLast().suffix(2) == ["ltx", "1"] }
                .map { $0.split(separator: "/").dropLast(3).joined(separator: "/") }
            if Set(compacted).count >= count { return true }
            try? await Task.sleep(for: .milliseconds(100))
        } while ContinuousClock.now < deadline
        return false
    }

    /// `litestream` on PATH, or nil.
    static let litestream: String? = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":")
        .map { "\($0)/litestream" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}
