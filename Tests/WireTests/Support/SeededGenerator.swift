import VerticalsTesting

/// The shared seeded generator (VerticalsTesting), under the name these tests use.
typealias SeededGenerator = VerticalsTesting.SeededGenerator

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
