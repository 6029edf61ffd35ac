import IOInterface
import Synchronization
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// A patient booking slot after slot, each under its own request id, retrying the same id on
/// every retryable error, until told to stop (or out of slots): what a careful client does.
struct Booker: Sendable {
    /// What came of it.
    struct Outcome: Sendable {
        /// request id → the booking id the daemon acknowledged.
        var acknowledged: [String: String] = [:]
        /// Requests that failed with an error no retry could fix.
        var failures: [String] = []
        /// Attempts that failed and were retried.
        var retries = 0
        /// From the first attempt to the acknowledgement, per booking.
        var latencies: [Duration] = []
        /// When each booking was acknowledged, in the order of ``latencies``.
        var acknowledgedAt: [ContinuousClock.Instant] = []
        /// Errors by code, retried or not.
        var errors: [String: Int] = [:]

        /// Each booking's latency and the time it was in flight, from its first attempt to its
        /// acknowledgement.
        var inFlight: [(latency: Duration, span: ClosedRange<ContinuousClock.Instant>)] {
            zip(latencies, acknowledgedAt).map { latency, acknowledged in
                (latency, (acknowledged - latency)...acknowledged)
            }
        }
    }

    /// Set once the booker may stop after its current booking.
    final class StopFlag: Sendable {
        private let value = Atomic<Bool>(false)
        func set() { value.store(true, ordering: .relaxed) }
        var isSet: Bool { value.load(ordering: .relaxed) }
    }

    /// Booking calls made so far, retries included: read by the test while the booker runs.
    final class AttemptCount: Sendable {
        private let value = Atomic<Int>(0)
        func add() { value.add(1, ordering: .relaxed) }
        var current: Int { value.load(ordering: .relaxed) }
    }

    let client: ServiceClient
    let token: String
    let clinic: String
    let slots: [Timestamp]
    let round: Int
    /// The wait after each booking: a long soak paces its bookers to last.
    var pause = Duration.milliseconds(40)
    let stop = StopFlag()
    let attempts = AttemptCount()

    func run() async -> Outcome {
        var outcome = Outcome()
        for (index, slot) in slots.enumerated() {
            if stop.isSet && index >= 8 { break }
            let requestID = "round\(round)-\(index)"
            let input = Appointments.BookInput(
                token: token, clinicID: clinic, service: .gp, startsAt: slot, durationMinutes: 20,
                reason: "fault \(index)",
                requestID: requestID)
            let started = ContinuousClock.now
            while true {
                attempts.add()
                do {
                    let booking = try await client.call(Appointments.book, input)
                    outcome.acknowledged[requestID] = booking.id
                    let now = ContinuousClock.now
                    outcome.latencies.append(now - started)
                    outcome.acknowledgedAt.append(now)
                    break
                } catch {
                    outcome.errors["\(error.code)", default: 0] += 1
                    guard error.retryable || error.code == .unavailable || error.code == .deadlineExceeded,
                        ContinuousClock.now - started < .seconds(60)
                    else {
                        outcome.failures.append("\(requestID): \(error)")
                        break
                    }
                    outcome.retries += 1
                    try? await Task.sleep(for: .milliseconds(50))
                }
            }
            try? await Task.sleep(for: pause)
        }
        return outcome
    }
}
