/// The simulator's one source of chance: xorshift64* (Vigna 2016), seeded, so that a seed decides
/// every choice of a run and replays it exactly (the system's generator would not). Not for secrets.
///
/// ```swift
/// var random = SimulationRandom(seed: 42)
/// let roll = random.below(6)          // 0 ..< 6, the same for seed 42 every time
/// if random.chance(percent: 10) { … }
/// ```
struct SimulationRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose every draw follows from `seed` (any value, 0 included).
    init(seed: UInt64) {
        let mixed = (seed ^ 0x6A09_E667_F3BC_C909) &* 0x2545_F491_4F6C_DD1D
        state = mixed == 0 ? 0x6A09_E667_F3BC_C909 : mixed
        for _ in 0..<4 { _ = next() } // nearby seeds part ways at once
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    /// A number in `0 ..< bound` (`bound` > 0).
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(max(bound, 1)))
    }

    /// True `percent` times in a hundred.
    mutating func chance(percent: Int) -> Bool {
        below(100) < percent
    }

    /// One of `choices` (not empty).
    mutating func pick<T>(_ choices: [T]) -> T {
        choices[below(choices.count)]
    }

    /// A duration in `range`, in whole milliseconds.
    mutating func milliseconds(_ range: ClosedRange<Int>) -> Duration {
        .milliseconds(range.lowerBound + below(range.upperBound - range.lowerBound + 1))
    }
}
