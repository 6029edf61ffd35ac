import Synchronization
import VerticalsContract

/// How a daemon traces, from its environment:
///
/// - `VERTICALS_TRACING=off`: no span, no ring, no id; a request's traceparent is passed on as
///   received (what the daemons did before tracing, and the bench's "off" row).
/// - `VERTICALS_TRACE_SAMPLE_RATIO` (0…1, default 0): the share of traces *started here* that are
///   sampled. A request that brings a traceparent follows its `sampled` flag instead: the
///   decision is the root's, carried in the flags. Whatever the ratio, every server span leaves a
///   summary in the ring (``SpanRing``), so `svc-supervisor trace --slowest` works at ratio 0.
public struct TraceSampling: Sendable, Equatable {
    /// Whether tracing is on at all.
    public var enabled: Bool
    /// The share of new traces sampled, 0…1.
    public var ratio: Double

    /// Tracing on, sampling `ratio` of the traces that start here.
    public init(enabled: Bool = true, ratio: Double = 0) {
        self.enabled = enabled
        self.ratio = min(max(ratio.isNaN ? 0 : ratio, 0), 1)
    }

    /// What `environment` says (see the type's summary); an unreadable ratio counts as 0.
    public static func from(environment: [String: String]) -> TraceSampling {
        let off =
            environment[DaemonSettings.tracing.name].map { ["off", "0", "false", "no"].contains($0.lowercased()) }
            ?? false
        return TraceSampling(
            enabled: !off, ratio: environment[DaemonSettings.traceSampleRatio.name].flatMap(Double.init) ?? 0)
    }

    /// The ratio as a bound on a trace id's low half: a trace is sampled when its id's low bits
    /// are below the ratio's share of 2^64 (W3C ids are random, so any daemon deciding on the same
    /// id agrees); 0 samples none, nil every trace.
    var threshold: UInt64? {
        if ratio >= 1 { return nil }
        if ratio <= 0 { return 0 }
        return UInt64(ratio * 18_446_744_073_709_551_615.0)
    }
}

/// Fresh trace and span ids: SplitMix64 over one atomic counter seeded from the system's random
/// source once. An id costs an atomic add and a few multiplies, no system call (the system
/// generator's `getrandom` per request cost more than the rest of an unsampled span).
enum TraceIDs {
    private static let state = Atomic<UInt64>(UInt64.random(in: 1...UInt64.max))

    /// The counter's step (SplitMix64's golden-ratio increment).
    static let gamma: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// A non-zero 64-bit id.
    static func next() -> UInt64 {
        mix(state.wrappingAdd(gamma, ordering: .relaxed).newValue)
    }

    /// A new trace's ids from `draw`, a fresh value of a counter stepped by ``gamma`` (a
    /// ``TraceRecorder`` keeps its own, so the request path reads no lazily initialised global):
    /// its low half mixed from it as ``next()`` mixes; its high half and its root span's id made
    /// from that (an odd multiply, a bijection, so never 0; a rotation xor that product, never 0
    /// either). The trace id keeps 64 random bits, in its right-most half as W3C asks, and a root
    /// costs one mix rather than three.
    static func root(draw: UInt64) -> (low: UInt64, high: UInt64, span: UInt64) {
        let low = mix(draw)
        let high = low &* 0xD6E8_FEB8_6659_FD93
        let span = (low >> 29 | low << 35) ^ high
        return (low, high, span == 0 ? 1 : span)
    }

    /// A span's id from `draw`, a fresh value of a counter stepped by ``gamma``, as ``next()`` makes one.
    static func id(draw: UInt64) -> UInt64 {
        mix(draw)
    }

    /// SplitMix64's finaliser of `seed`, never 0.
    private static func mix(_ seed: UInt64) -> UInt64 {
        var z = seed
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return z == 0 ? 1 : z
    }
}
