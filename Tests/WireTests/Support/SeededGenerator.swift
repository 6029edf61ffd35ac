/// A deterministic random number generator (SplitMix64), so a failing random test
/// fails the same way on every run: its seed is in the test's arguments.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` random bytes.
    mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) }
    }
}

/// Hex text of bytes, for readable expectations: `hex([0x08, 0x96, 0x01]) == "08 96 01"`.
func hex(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { byte in
        let text = String(byte, radix: 16)
        return byte < 16 ? "0" + text : text
    }.joined(separator: " ")
}

/// Bytes from hex text, ignoring spaces: `bytes("08 96 01")`.
func bytes(_ hexText: String) -> [UInt8] {
    let digits = hexText.filter { !$0.isWhitespace }
    var result: [UInt8] = []
    var index = digits.startIndex
    while index < digits.endIndex {
        let next = digits.index(index, offsetBy: 2)
        result.append(UInt8(digits[index..<next], radix: 16)!)
        index = next
    }
    return result
}
