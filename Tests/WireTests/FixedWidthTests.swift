import Testing
import VerticalsWire

@Suite("Fixed-width integers")
struct FixedWidthTests {
    @Test func writes_putTheDocumentedBytesInOrder() {
        var writer = ByteWriter()
        writer.writeByte(0xaa)
        writer.writeUInt16BE(0x0102)
        writer.writeUInt32BE(0x0304_0506)
        writer.writeUInt64BE(0x0708_090a_0b0c_0d0e)
        writer.writeUInt64LE(0x0708_090a_0b0c_0d0e)
        #expect(
            hex(writer.bytes)
                == "aa 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0e 0d 0c 0b 0a 09 08 07")
    }

    @Test func reads_atAnyOffset_returnWhatWasWritten() throws {
        // One leading byte puts every integer after it at an odd offset.
        var writer = ByteWriter()
        writer.writeByte(0)
        writer.writeUInt32BE(0xdead_beef)
        writer.writeUInt64BE(UInt64.max - 1)
        writer.writeUInt64LE(0x0102_0304_0506_0708)
        var reader = ByteReader(writer.bytes)
        #expect(try reader.readByte() == 0)
        #expect(try reader.readUInt32BE() == 0xdead_beef)
        #expect(try reader.readUInt64BE() == UInt64.max - 1)
        #expect(try reader.readUInt64LE() == 0x0102_0304_0506_0708)
        #expect(reader.isAtEnd)
    }

    @Test func read_pastTheReadersEnd_throwsAndKeepsItsPlace() {
        var reader = ByteReader(bytes("01 02 03 04 05 06 07 08"), start: 1, end: 8)
        #expect(throws: ByteReader.Underflow(offset: 1)) { try reader.readUInt64BE() }
        #expect(reader.index == 1)
    }

    @Test func read_whenEndClaimsMoreThanTheStorage_throwsRatherThanReadPastIt() {
        // `end` is the caller's to set; the storage's own bounds still hold.
        var reader = ByteReader(bytes("01 02 03 04"), start: 0, end: 12)
        #expect(throws: ByteReader.Underflow(offset: 0)) { try reader.readUInt64BE() }
        reader.index = -2
        #expect(throws: ByteReader.Underflow(offset: -2)) { try reader.readUInt32BE() }
    }
}
