import Testing
import VerticalsClient

@testable import VerticalsServiceKit

/// A server connection's timeout clocks without a socket or a clock: each clock state × what a
/// sweep's look sees, with the verdict (``ConnectionTimeouts``). Default limits: handshake and
/// frame 10 s, idle 600 s.
@Suite struct ConnectionTimeoutsTests {
    typealias Verdict = ConnectionTimeouts.Verdict

    static let arrived = MonotonicInstant(nanoseconds: 1_000_000_000_000)
    static let limits = ConnectionLimits()

    /// Where the clocks are when the look comes, each reached by events from an arrival.
    enum Clocks: String, CaseIterable, Sendable, CustomStringConvertible {
        /// No whole frame yet.
        case fresh
        /// A frame came and no look has seen it.
        case frameUnseen
        /// A frame came; a look at the arrival saw it, nothing since.
        case quiet
        /// As ``quiet``, but that look found part of a frame waiting.
        case partialFrame

        var description: String { rawValue }

        var timeouts: ConnectionTimeouts {
            var timeouts = ConnectionTimeouts(arrived: arrived)
            guard self != .fresh else { return timeouts }
            timeouts.frameReceived()
            guard self != .frameUnseen else { return timeouts }
            _ = timeouts.look(
                now: arrived, receiving: self == .partialFrame, inFlight: 0, readingPaused: false, limits: limits)
            return timeouts
        }
    }

    /// What a look sees, `after` the arrival.
    struct Look: Sendable, CustomStringConvertible {
        var after: Duration
        var receiving = false
        var inFlight = 0
        var paused = false

        var description: String {
            "\(after)" + (receiving ? " receiving" : "") + (inFlight > 0 ? " in flight" : "")
                + (paused ? " paused" : "")
        }
    }

    static let idleDue = arrived + .seconds(600)

    static let table: [(Clocks, Look, Verdict)] = [
        (.fresh, Look(after: .seconds(1)), .watch),
        (.fresh, Look(after: .seconds(11)), .expired(.handshake)),
        (.fresh, Look(after: .seconds(11), receiving: true), .expired(.handshake)),
        (.fresh, Look(after: .seconds(601), inFlight: 1), .expired(.handshake)),
        (.frameUnseen, Look(after: .seconds(1)), .watch),
        (.frameUnseen, Look(after: .seconds(601)), .watch),
        (.frameUnseen, Look(after: .seconds(601), receiving: true), .watch),
        (.quiet, Look(after: .seconds(1)), .settled(until: idleDue)),
        (.quiet, Look(after: .seconds(1), paused: true), .watch),
        (.quiet, Look(after: .seconds(1), inFlight: 1), .watch),
        (.quiet, Look(after: .seconds(1), receiving: true), .watch),
        (.quiet, Look(after: .seconds(11), receiving: true), .watch), // the frame's clock starts at this look
        (.quiet, Look(after: .seconds(601)), .expired(.idle)),
        (.quiet, Look(after: .seconds(601), paused: true), .expired(.idle)),
        (.quiet, Look(after: .seconds(601), inFlight: 1), .watch),
        (.partialFrame, Look(after: .seconds(1), receiving: true), .watch),
        (.partialFrame, Look(after: .seconds(11), receiving: true), .expired(.frame)),
        (.partialFrame, Look(after: .seconds(11), receiving: true, inFlight: 1), .expired(.frame)),
        (.partialFrame, Look(after: .seconds(11)), .settled(until: idleDue)), // the rest came, or backpressure holds it
        (.partialFrame, Look(after: .seconds(601)), .expired(.idle)),
    ]

    @Test func everyClockState_andWhatALookSees() {
        for (clocks, look, expected) in Self.table {
            var timeouts = clocks.timeouts
            let verdict = timeouts.look(
                now: Self.arrived + look.after, receiving: look.receiving, inFlight: look.inFlight,
                readingPaused: look.paused, limits: Self.limits)
            #expect(verdict == expected, "\(clocks), look at \(look)")
        }
        #expect(Set(Self.table.map(\.0.rawValue)) == Set(Clocks.allCases.map(\.rawValue)))
    }

    @Test func aFrameWhileTheSweepRests_movesTheIdleDeadline() {
        var timeouts = Clocks.quiet.timeouts
        timeouts.frameReceived()
        timeouts.frameWhileSweepRests(now: Self.arrived + .seconds(300))
        let verdict = timeouts.look(
            now: Self.arrived + .seconds(601), receiving: false, inFlight: 0, readingPaused: false, limits: Self.limits)
        #expect(verdict == .settled(until: Self.arrived + .seconds(900)))
    }

    @Test func aFramesClock_startsAtTheFirstLookThatFindsIt_neverEarly() {
        var timeouts = Clocks.quiet.timeouts
        var verdicts: [Verdict] = []
        for seconds in [5, 14, 16] {
            verdicts.append(
                timeouts.look(
                    now: Self.arrived + .seconds(seconds), receiving: true, inFlight: 0, readingPaused: false,
                    limits: Self.limits))
        }
        #expect(verdicts == [.watch, .watch, .expired(.frame)]) // 9 s after the first look, then 11
    }

    @Test func aLookThatSeesNewFrames_restartsTheIdleClock() {
        var timeouts = Clocks.quiet.timeouts
        timeouts.frameReceived()
        var verdict = timeouts.look(
            now: Self.arrived + .seconds(500), receiving: false, inFlight: 0, readingPaused: false, limits: Self.limits)
        #expect(verdict == .watch)
        verdict = timeouts.look(
            now: Self.arrived + .seconds(700), receiving: false, inFlight: 0, readingPaused: false, limits: Self.limits)
        #expect(verdict == .settled(until: Self.arrived + .seconds(1_100)))
    }
}
