import VerticalsWire

/// The values at the edges of each field type: what a decoder, a range check or an arithmetic
/// step meets least often and breaks on most. Timestamps and integers at their minimum, maximum,
/// 0 and -1 (a timestamp at `Int64.min` microseconds is year -290308, which only the binary
/// wire can carry); NaN, infinities and huge doubles; empty, 64 KiB and combining-mark strings;
/// unknown enumeration cases.
enum EdgeValues {
    /// Microseconds of 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z, the range RFC 3339 writes.
    static let firstRFC3339Microsecond: Int64 = -62_135_596_800_000_000
    static let lastRFC3339Microsecond: Int64 = 253_402_300_799_999_999

    static let integers: [Int64] = [
        .min, .max, 0, -1, 1, .min + 1, .max - 1, Int64(Int32.max) + 1, Int64(Int32.min) - 1, 1_000_000_000,
        -1_000_000_000,
    ]

    static let unsigned: [UInt64] = [0, 1, .max, UInt64(Int64.max), UInt64(Int64.max) + 1, UInt64(UInt32.max) + 1]

    static let timestamps: [Int64] = [
        .min, .max, 0, -1, 1, .min + 1, .max - 1,
        firstRFC3339Microsecond, firstRFC3339Microsecond - 1, lastRFC3339Microsecond, lastRFC3339Microsecond + 1,
        // About year -290000 and +290000.
        -9_213_000_000_000_000_000, 9_213_000_000_000_000_000,
    ]

    static let doubles: [Double] = [
        .nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e308, -1e308,
        .leastNonzeroMagnitude, -0.0, 0, 9.3e18, -9.3e18, 1e300,
    ]

    /// 64 KiB strings are built once.
    static let longASCII = String(repeating: "a", count: 65_536)
    static let combiningMarks = "e" + String(repeating: "\u{0301}", count: 32_767)
    static let zalgo = String(repeating: "Z\u{0336}\u{0337}\u{0338}\u{0489}\u{20DD}", count: 3_000)

    /// Strings short enough to fill a list of thousands with.
    static let shortStrings: [String] = [
        "", " ", "\u{0}", "a\u{0}b", "\u{202E}txt.exe", "\u{FEFF}", "\u{FFFD}", "e\u{0301}\u{0301}\u{0301}",
        "🇬🇧🇫🇷👩‍👩‍👧‍👦", "../../../../etc/passwd", "%s%n%x", "' OR '1'='1' --", "\"}{\\", "NaN", "-1",
        "9223372036854775808", "\n\r\t", String(repeating: "x", count: 300),
    ]

    static let strings: [String] =
        shortStrings + [longASCII, combiningMarks, zalgo, String(repeating: "é", count: 32_768)]

    static let byteStrings: [[UInt8]] = [[], [0], [0xFF, 0xFE, 0x00], [UInt8](repeating: 0xA5, count: 65_536)]

    /// An enumeration case no contract declares.
    static let unknownCases: [String] = ["fuzzUnknownCase", "", "\u{0}", longASCII]

    /// How long a list of thousands is.
    static let longList = 5_000

    /// The `rank`th edge value of `type` (wrapping around its list), most telling first: what the
    /// sweep sends to one field at a time before random fuzzing starts; nil for a message. `small`
    /// keeps it to a few bytes (for a list of thousands, which must stay under the receiver's
    /// frame limit to reach the operation at all).
    static func ranked(_ type: FieldType, _ rank: Int, small: Bool = false) -> WireValue? {
        func at<T>(_ values: [T]) -> T { values[rank % values.count] }
        switch type {
        case .bool: return .bool(rank % 2 == 0)
        case .int: return .int(at(integers))
        case .uint: return .uint(at(unsigned))
        case .double: return .double(at(doubles))
        case .timestamp: return .timestamp(Timestamp(microsecondsSinceEpoch: at(timestamps)))
        case .string: return .string(at(small ? shortStrings : sweptStrings))
        case .bytes: return .bytes(at(small ? Array(byteStrings.prefix(3)) : byteStrings))
        case .enumeration: return .enumeration(at(small ? Array(unknownCases.prefix(3)) : unknownCases))
        case .message: return nil
        }
    }

    /// The strings in the sweep's order: the big ones first.
    static let sweptStrings: [String] = ["", longASCII, combiningMarks] + shortStrings.dropFirst() + [zalgo]

    /// One edge value of `type`; `small` keeps it to a few bytes (for the elements of a long list).
    static func value(of type: FieldType, small: Bool, using random: inout FuzzRandom) -> WireValue? {
        switch type {
        case .bool: return .bool(random.chance(50))
        case .int: return .int(random.pick(integers))
        case .uint: return .uint(random.pick(unsigned))
        case .double: return .double(random.pick(doubles))
        case .timestamp: return .timestamp(Timestamp(microsecondsSinceEpoch: random.pick(timestamps)))
        case .string: return .string(random.pick(small ? shortStrings : strings))
        case .bytes: return .bytes(random.pick(small ? Array(byteStrings.prefix(3)) : byteStrings))
        case .enumeration(let schema):
            if random.chance(30), let known = schema.cases.first { return .enumeration(known.uppercased()) }
            return .enumeration(random.pick(small ? Array(unknownCases.prefix(3)) : unknownCases))
        case .message: return nil // built by InputMaker, which knows the depth
        }
    }
}
