/// The fuzzer's one source of choices: SplitMix64 from the run's seed, so that a seed names a
/// run's whole sequence of inputs (the answers it meets, ids and tokens, may still differ).
///
/// ```swift
/// var random = FuzzRandom(seed: 42)
/// let edge = random.pick([Int64.min, -1, 0, Int64.max])
/// ```
struct FuzzRandom: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose sequence `seed` fixes.
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with probability `percent` in 100.
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self) < percent }

    /// One element of a non-empty array.
    mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &self)] }
}
