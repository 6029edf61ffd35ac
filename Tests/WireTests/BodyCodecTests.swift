import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsWire

@Suite("Body codec")
struct BodyCodecTests {
    static let samples: [Sample] = [
        Sample(),
        .minimal,
        Sample(
            flag: true, count: .min, size: .max, ratio: -0.0, title: String(repeating: "long ", count: 40),
            blob: Array(0...255), at: .earliest, colour: .unknown("ultraviolet"),
            inner: Inner(name: String(repeating: "n", count: 200), value: .max), tags: ["😀", "\u{0}"], items: [],
            note: "", level: .min),
        Sample(count: .max, ratio: .infinity, at: .latest, level: .max),
    ]

    @Test("every field type round-trips through the direct codec", arguments: samples)
    func directCodec_roundTripsEveryFieldType(sample: Sample) throws {
        #expect(try Sample(decoding: sample.encodedBody()) == sample)
    }

    @Test func directCodec_writesTheDocumentedBytes() {
        let inner = Inner(name: "ab", value: -2)
        #expect(hex(inner.encodedBody()) == "0a 02 61 62 10 03")
        var writer = BodyWriter()
        writer.write(1, true)
        writer.write(2, UInt64(300))
        writer.write(3, 1.0)
        writer.write(4, Timestamp(microsecondsSinceEpoch: -1))
        writer.write(5, Colour.blue)
        writer.write(6, inner)
        #expect(
            hex(writer.buffer.bytes)
                == "08 01 10 ac 02 19 00 00 00 00 00 00 f0 3f 20 01 2a 04 62 6c 75 65 32 06 0a 02 61 62 10 03")
    }

    @Test func directCodec_givenANestedMessageOver127Bytes_widensItsLengthPrefix() throws {
        let sample = Sample(inner: Inner(name: String(repeating: "z", count: 300)))
        #expect(try Sample(decoding: sample.encodedBody()) == sample)
    }

    /// Inner bodies of 127, 128, 16383, 16384 and 2^21 bytes: the widened prefix is the canonical
    /// varint, and the bytes written before and after the nested message are untouched.
    @Test(arguments: [127, 128, 16_383, 16_384, 1 << 21])
    func directCodec_nestedMessageAtAVarintEdge_isPrefixedWithItsCanonicalLength(bodyLength: Int) throws {
        // Inner's body: name's key, length and bytes, then value's key and 0; sized to bodyLength.
        var nameLength = bodyLength - 4
        while 3 + Varint.length(of: UInt64(nameLength)) + nameLength > bodyLength { nameLength -= 1 }
        let inner = Inner(name: String(repeating: "q", count: nameLength))
        let innerBody = inner.encodedBody()
        try #require(innerBody.count == bodyLength)

        var writer = BodyWriter()
        writer.write(1, "before")
        writer.write(2, inner)
        writer.write(3, "after")

        var expected = BodyWriter()
        expected.write(1, "before")
        expected.writeKey(2, .lengthDelimited)
        expected.buffer.writeVarint(UInt64(bodyLength))
        expected.buffer.writeBytes(innerBody)
        expected.write(3, "after")
        #expect(writer.buffer.bytes == expected.buffer.bytes)
    }

    @Test func directCodec_skipsUnknownFieldsOfEveryWireType() throws {
        var body = BodyWriter()
        body.write(50, UInt64.max) // varint
        body.write(51, 2.5) // fixed64
        body.write(52, "new") // length-delimited
        body.writeKey(53, .fixed32)
        body.buffer.writeBytes([1, 2, 3, 4])
        Inner(name: "kept", value: 5).encode(to: &body)
        body.write(54, Inner(name: "nested"))
        #expect(try Inner(decoding: body.buffer.bytes) == Inner(name: "kept", value: 5))
    }

    @Test func directCodec_givenAFieldTwice_keepsTheLastValue() throws {
        var body = BodyWriter()
        body.write(1, "first")
        body.write(1, "last")
        #expect(try Inner(decoding: body.buffer.bytes).name == "last")
    }

    @Test func directCodec_givenAWrongWireType_namesTheField() {
        var body = BodyWriter()
        body.write(1, "name")
        body.write(2, "not a number")
        let error = try? #require(throws: WireDecodingError.self) { try Inner(decoding: body.buffer.bytes) }
        #expect(error?.fieldPath == "test.Inner.value")
        #expect(error?.code == .wrongWireType && error?.message == "expected varint, found lengthDelimited")
        #expect(error?.description == "test.Inner.value: expected varint, found lengthDelimited")
    }

    @Test func directCodec_givenAMissingRequiredFieldDeepInside_namesItsPath() throws {
        var hours = BodyWriter()
        hours.write(1, Specimen.Weekday.monday)
        hours.write(3, 1020) // `opens` (tag 2) is missing
        var site = BodyWriter()
        site.write(1, "c1")
        site.write(2, "Hill House")
        site.write(3, "1 Hill Road")
        site.write(4, 51.5)
        site.write(5, -0.1)
        site.write(6, "Europe/London")
        site.writeKey(9, .lengthDelimited)
        hours.buffer.bytes.writeValue(to: &site.buffer)
        site.write(10, Timestamp.epoch)
        let error = try #require(throws: WireDecodingError.self) {
            try Specimen.Site(decoding: site.buffer.bytes)
        }
        #expect(error.code == .missingField)
        #expect(error.fieldPath == "specimen.Site.hours.opens")
        #expect(error.description == "specimen.Site.hours.opens: required field is missing")
    }

    @Test("a body cut inside its required fields fails with an error, never a crash", arguments: [Sample(), .minimal])
    func directCodec_givenAnyTruncation_throws(sample: Sample) {
        let body = sample.encodedBody()
        // Fields 1...8 are required and written first; `level` (2 bytes here) is written last.
        var requiredOnly = sample
        (requiredOnly.inner, requiredOnly.tags, requiredOnly.items, requiredOnly.note) = (nil, [], [], nil)
        let requiredLength = requiredOnly.encodedBody().count - 2
        for length in 0..<body.count {
            let prefix = Array(body.prefix(length))
            if length < requiredLength {
                #expect(throws: WireDecodingError.self) { try Sample(decoding: prefix) }
            } else {
                _ = try? Sample(decoding: prefix)
            }
        }
    }

    @Test func directCodec_givenATruncatedUnknownField_namesItsTag() {
        var body = BodyWriter()
        body.writeKey(9, .lengthDelimited)
        body.buffer.writeVarint(10)
        let error = try? #require(throws: WireDecodingError.self) { try Inner(decoding: body.buffer.bytes) }
        #expect(error?.code == .truncated)
        #expect(error?.fieldPath == "test.Inner.#9")
    }

    @Test(
        "keys with an unsupported wire type or an invalid tag are errors",
        arguments: [
            ("0b", "unsupported wire type 3"), ("0c", "unsupported wire type 4"), ("00 00", "invalid field tag 0"),
        ])
    func directCodec_givenABadKey_throws(body: String, message: String) {
        let error = try? #require(throws: WireDecodingError.self) { try Inner(decoding: bytes(body)) }
        #expect(error?.description.contains(message) == true)
    }
}
