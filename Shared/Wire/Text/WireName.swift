/// The grammar of a name that arrives from a peer (an operation, a service, a message, a field or
/// an enumeration case in a description or a `daemon.contractCheck`), checked on its bytes before
/// anything hashes, sorts, compares or keeps it (PROTOCOL.md § 14, "Names").
///
/// A name is one or more identifiers joined by `.`; an identifier is an ASCII letter or `_`, then
/// ASCII letters, digits, `_` and `-`; the whole is at most ``maxBytes`` bytes. Every name a
/// contract file or a manifest can declare fits it. Checked text is ASCII, so its `String`
/// comparisons and hashes are those of its bytes: no Unicode normalisation, whatever a peer sent.
public enum WireName {
    /// The longest name, in bytes: 128.
    public static let maxBytes = 128

    /// Why `name` is not a name of the grammar, in words; nil when it is one. Reads each byte
    /// once, at most ``maxBytes`` + 1 of them.
    @inlinable
    public static func problem(_ name: some StringProtocol) -> String? {
        let utf8 = name.utf8
        guard !utf8.isEmpty else { return "a name is empty" }
        guard utf8.count <= maxBytes else { return "a name is \(utf8.count) bytes long; at most \(maxBytes)" }
        var atStart = true
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
                atStart = false
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                guard !atStart else { return "a name's identifiers start with an ASCII letter or '_'" }
            case UInt8(ascii: "."):
                guard !atStart else { return "a name has an empty identifier between dots" }
                atStart = true
            default:
                return "a name holds only ASCII letters, digits, '_', '-' and '.'; found byte \(byte)"
            }
        }
        return atStart ? "a name ends with '.'" : nil
    }

    /// Whether `name` is a name of the grammar.
    @inlinable
    public static func isValid(_ name: some StringProtocol) -> Bool {
        problem(name) == nil
    }

    /// Whether `text` is all ASCII, read eight bytes at a time: what a name must be before it is
    /// compared or hashed as a `String` (every routed name is), since Swift normalises any other
    /// text to compare or hash it, at a cost a peer would choose.
    @inlinable
    public static func isASCII(_ text: String) -> Bool {
        let checked = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            let raw = UnsafeRawBufferPointer(bytes)
            var index = 0
            while index + 8 <= raw.count {
                guard raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 else {
                    return false
                }
                index += 8
            }
            while index < raw.count {
                guard raw[index] < 0x80 else { return false }
                index += 1
            }
            return true
        }
        return checked ?? text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// Whether `lhs` sorts before `rhs` by their bytes: the order of names as keys.
    @inlinable
    public static func precedes(_ lhs: some StringProtocol, _ rhs: some StringProtocol) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}
