import Foundation
import IOInterface
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsWire

/// Where a booking's time goes: the calls appointments makes for one booking, made directly
/// from here one at a time (p50 of `count` each), so the end-to-end figure can be read against them.
struct BookingLegs {
    let setup: Setup
    let client: ServiceClient
    let loop: EventLoop
    var count = 50

    static let names = ["identity.authenticate", "clinics.checkSlot", "notifications.send"]

    /// Each leg's median in milliseconds, by name.
    func medians() async -> [String: Double] {
        let setup = self.setup
        let client = self.client
        let count = self.count
        return await Task(executorPreference: loop) { () -> [String: Double] in
            var result: [String: Double] = [:]
            let now = Timestamp(secondsSinceEpoch: Int64(Date().timeIntervalSince1970))
            let slot = BookingSlots(now: now).take().startsAt
            for name in Self.names {
                var times: [Double] = []
                for index in 0..<count {
                    let began = monotonicNanoseconds()
                    do {
                        switch name {
                        case "identity.authenticate":
                            _ = try await client.call(Identity.authenticate, .init(token: setup.tokens[0]))
                        case "clinics.checkSlot":
                            _ = try await client.call(
                                Clinics.checkSlot,
                                .init(
                                    clinicID: setup.clinicID, service: .gp, startsAt: slot,
                                    endsAt: slot.adding(.seconds(300))))
                        default:
                            _ = try await client.call(
                                Notifications.send,
                                .init(
                                    userID: setup.userIDs[0], title: "Benchmark", body: "A leg of a booking",
                                    deduplicationKey: "bench-leg-\(monotonicNanoseconds())-\(index)"))
                        }
                    } catch {
                        fail("\(name) failed: \(error)")
                    }
                    times.append(Double(monotonicNanoseconds() - began) / 1_000_000)
                }
                result[name] = SuiteBenchmark.percentile(times, 50)
            }
            return result
        }.value
    }
}
