import Testing
import VerticalsWire

/// The decoder's shortcuts give exactly what the plain path gives: repeated fields counted ahead
/// to reserve their arrays, and enumeration names matched by their bytes.
@Suite("Decoding fast paths")
struct DecodingFastPathTests {
    /// tags(10) "a", title(5), tags "b", items(11), tags "c": one list interleaved with other fields.
    static func interleaved() -> BodyWriter {
        var body = BodyWriter()
        body.write(10, "a")
        body.write(5, "title")
        body.write(10, "b")
        body.write(11, Inner(name: "x"))
        body.write(10, "c")
        return body
    }

    @Test func countRemaining_countsEveryLaterFieldWithTheTag_fromTheCurrentOne() throws {
        var reader = BodyReader(ByteReader(Self.interleaved().buffer.bytes))
        var counts: [UInt32: Int] = [:]
        while let tag = try reader.nextTag() {
            if counts[tag] == nil { counts[tag] = reader.countRemaining(of: tag) }
            try reader.skip()
        }
        #expect(counts == [10: 3, 5: 1, 11: 1])
    }

    @Test func countRemaining_leavesTheReaderWhereItWas() throws {
        var reader = BodyReader(ByteReader(Self.interleaved().buffer.bytes))
        _ = try reader.nextTag()
        let before = reader.bytes.index
        _ = reader.countRemaining(of: 10)
        #expect(reader.bytes.index == before)
        #expect(try reader.read(String.self) == "a")
    }

    @Test func countRemaining_givenAMalformedTail_stopsThereAndDecodingStillReportsIt() throws {
        var bytes = Self.interleaved().buffer.bytes
        bytes += [0x52, 0x7F] // tags(10) claims 127 bytes, none follow
        var reader = BodyReader(ByteReader(bytes))
        _ = try reader.nextTag()
        #expect(reader.countRemaining(of: 10) == 4)
        let error = try? #require(throws: WireDecodingError.self) { try Sample(decoding: bytes) }
        #expect(error?.code == .truncated)
    }

    @Test func append_keepsEveryElementInWireOrder_andReservesForAll() throws {
        var reader = BodyReader(ByteReader(Self.interleaved().buffer.bytes))
        var tags: [String] = []
        while let tag = try reader.nextTag() {
            if tag == 10 {
                try reader.append(to: &tags)
                #expect(tags.capacity >= 3)
            } else {
                try reader.skip()
            }
        }
        #expect(tags == ["a", "b", "c"])
    }

    /// 100 000 empty `items` (two bytes each, and each fails: Inner's name is required): the
    /// array must not reserve 100 000 elements for it, only what four times 200 kB allows.
    @Test func append_givenManyTinyElements_reservesNoMoreThanFourTimesTheBody() throws {
        let bytes: [UInt8] = Array([[UInt8]](repeating: [0x5A, 0x00], count: 100_000).joined())
        var reader = BodyReader(ByteReader(bytes))
        _ = try reader.nextTag()
        #expect(reader.countRemaining(of: 11) == 100_000)
        var items: [Inner] = []
        #expect(throws: WireDecodingError.self) { try reader.append(to: &items) }
        #expect(items.capacity <= 2 * 4 * 200_000 / MemoryLayout<Inner>.stride)
        #expect(items.capacity < 100_000)
        let error = try? #require(throws: WireDecodingError.self) { try Sample(decoding: bytes) }
        #expect(error?.code == .missingField)
    }

    @Test func append_givenTheWrongWireType_throwsAtTheTag() throws {
        var body = BodyWriter()
        body.write(10, UInt64(7)) // tags is a list of strings: a varint is not one
        let error = try? #require(throws: WireDecodingError.self) { try Sample(decoding: body.buffer.bytes) }
        #expect(error?.code == .wrongWireType && error?.message == "expected lengthDelimited, found varint")
    }

    /// Names as the wire may carry them: known, unknown, empty, a prefix of a known name, invalid
    /// UTF-8, and "K" written as U+212A KELVIN SIGN (equal to "K" as a Swift String, not in bytes).
    static let names: [[UInt8]] = [
        Array("red".utf8), Array("blue".utf8), Array("purple".utf8), [], Array("re".utf8), Array("redd".utf8),
        [0xFF, 0xFE], Array("\u{212A}".utf8), Array("K".utf8),
    ]

    @Test(arguments: names)
    func enumeration_decodesAsInitWireNameOfTheRepairedText(name: [UInt8]) throws {
        var body = BodyWriter()
        body.write(1, name)
        var reader = BodyReader(ByteReader(body.buffer.bytes))
        _ = try reader.nextTag()
        let expected = Colour(wireName: String(decoding: name, as: UTF8.self))
        #expect(try reader.read(Colour.self) == expected)
        #expect(reader.bytes.isAtEnd)
        var kelvin = BodyReader(ByteReader(body.buffer.bytes))
        _ = try kelvin.nextTag()
        #expect(try kelvin.read(Scale.self) == Scale(wireName: String(decoding: name, as: UTF8.self)))
    }
}

/// An enumeration with a case whose name has a canonically equivalent non-ASCII spelling.
private enum Scale: WireEnum {
    case kelvin
    case unknown(String)

    static let knownCases: [Scale] = [.kelvin]
    static let schema = EnumSchema("test.Scale", knownCases)
    init(unknown raw: String) { self = .unknown(raw) }
    var wireName: String {
        switch self {
        case .kelvin: "K"
        case .unknown(let raw): raw
        }
    }
}
