import Testing
import VerticalsWire

@Suite("Varint and ZigZag")
struct VarintTests {
    @Test(
        "varints have their documented bytes",
        arguments: [
            (UInt64(0), "00"), (1, "01"), (127, "7f"), (128, "80 01"), (300, "ac 02"), (16_383, "ff 7f"),
            (16_384, "80 80 01"), (UInt64(Int64.max), "ff ff ff ff ff ff ff ff 7f"),
            (UInt64.max, "ff ff ff ff ff ff ff ff ff 01"),
        ])
    func varint_encodesLeastSignificantGroupFirst(value: UInt64, expected: String) throws {
        var writer = ByteWriter()
        writer.writeVarint(value)
        #expect(hex(writer.bytes) == expected)
        #expect(Varint.length(of: value) == writer.count)
        var reader = ByteReader(writer.bytes)
        #expect(try reader.readVarint() == value)
        #expect(reader.isAtEnd)
    }

    @Test(
        "ZigZag maps small magnitudes to small numbers",
        arguments: [
            (Int64(0), UInt64(0)), (-1, 1), (1, 2), (-2, 3), (63, 126), (-64, 127), (64, 128),
            (Int64.max, UInt64.max - 1), (Int64.min, UInt64.max),
        ])
    func zigZag_mapsAndInverts(signed: Int64, unsigned: UInt64) {
        #expect(Varint.zigZag(signed) == unsigned)
        #expect(Varint.unZigZag(unsigned) == signed)
    }

    @Test(
        "signed edges round-trip through the body codec", arguments: [Int64.min, -129, -1, 0, 1, 127, 128, Int64.max])
    func int64_roundTripsAsZigZagVarint(value: Int64) throws {
        var writer = ByteWriter()
        value.writeValue(to: &writer)
        #expect(writer.count == Varint.length(of: Varint.zigZag(value)))
        var reader = ByteReader(writer.bytes)
        #expect(try Int64.readValue(from: &reader) == value)
    }

    @Test(
        "truncated varints are rejected without moving the reader",
        arguments: ["", "80", "ff ff", "ff ff ff ff ff ff ff ff ff"])
    func varint_givenTruncatedBytes_throwsAndKeepsItsPlace(text: String) {
        var reader = ByteReader(bytes(text))
        #expect(throws: ByteReader.Underflow.self) { try reader.readVarint() }
        #expect(reader.index == 0)
    }

    @Test(
        "varints longer than 10 bytes, or past 64 bits, are rejected",
        arguments: [
            "80 80 80 80 80 80 80 80 80 80 01", // 11 bytes
            "ff ff ff ff ff ff ff ff ff 02", // the 10th byte carries bits past 2^64
            "ff ff ff ff ff ff ff ff ff 81 00", // the 10th byte continues
        ])
    func varint_givenOverlongBytes_throws(text: String) {
        var reader = ByteReader(bytes(text))
        #expect(throws: ByteReader.Underflow.self) { try reader.readVarint() }
    }

    @Test func varint_readsOnlyItsOwnBytes() throws {
        var reader = ByteReader(bytes("ac 02 07"))
        #expect(try reader.readVarint() == 300)
        #expect(try reader.readVarint() == 7)
        #expect(reader.isAtEnd)
    }

    @Test func varint_givenAReaderNarrowedByEnd_doesNotReadPastIt() {
        var reader = ByteReader(bytes("80 01"), start: 0, end: 1)
        #expect(throws: ByteReader.Underflow.self) { try reader.readVarint() }
    }
}
