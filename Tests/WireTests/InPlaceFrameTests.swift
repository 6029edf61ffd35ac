import Testing
import VerticalsWire

/// Frames read where they were received: ``FrameDecoder/nextFrameBytes()`` and
/// ``Message/init(frame:knownOperation:)``.
@Suite("Frames in place")
struct InPlaceFrameTests {
    static func frame(_ id: UInt64, _ operation: String, body: [UInt8]) -> [UInt8] {
        Message.frame(Envelope(kind: .request, correlationID: id, operation: operation), rawBody: body)
    }

    static func firstByte(_ reader: ByteReader) -> UnsafeRawPointer? {
        reader.storage.withUnsafeBytes { $0.baseAddress.map { UnsafeRawPointer($0 + reader.index) } }
    }

    @Test func framesOfOneRead_areReadFromTheDecodersBuffer_withNoCopy() throws {
        var decoder = FrameDecoder()
        decoder.append(Self.frame(1, "a.b", body: [1, 2]) + Self.frame(2, "a.b", body: [3, 4, 5]))
        let first = try #require(try decoder.nextFrameBytes())
        let second = try #require(try decoder.nextFrameBytes())
        // One buffer: the second payload starts where the first ends, past its length prefix.
        let firstStart = try #require(Self.firstByte(first))
        #expect(Self.firstByte(second) == firstStart + first.remaining + FrameEncoder.headerSize)
        #expect(try Message(frame: first).body == [1, 2])
        #expect(try Message(frame: second).body == [3, 4, 5])
        #expect(try decoder.nextFrameBytes() == nil)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func aReaderKeptPastTheNextRead_stillReadsItsOwnFrame() throws {
        var decoder = FrameDecoder()
        decoder.append(Self.frame(1, "a.b", body: [1, 2, 3]))
        let kept = try #require(try decoder.nextFrameBytes())
        // The next bytes go into the buffer the kept reader shares: it must not see them.
        decoder.append(Self.frame(2, "c.d", body: [9, 9, 9, 9]))
        let next = try #require(try decoder.nextFrameBytes())
        let keptMessage = try Message(frame: kept)
        #expect(keptMessage.envelope.correlationID == 1)
        #expect(keptMessage.body == [1, 2, 3])
        #expect(try Message(frame: next).envelope.operation == "c.d")
    }

    @Test func aKnownOperation_isTheNameUsed_andAnUnknownOneIsDecoded() throws {
        var decoder = FrameDecoder()
        decoder.append(Self.frame(1, "example.longOperationName", body: [7]) + Self.frame(2, "other.name", body: [8]))
        let known = "example.longOperationName"
        var asked: [[UInt8]] = []
        let lookUp: (UnsafeRawBufferPointer) -> String? = { bytes in
            asked.append(Array(bytes))
            return bytes.elementsEqual(known.utf8) ? known : nil
        }
        let first = try Message(frame: try #require(try decoder.nextFrameBytes()), knownOperation: lookUp)
        let second = try Message(frame: try #require(try decoder.nextFrameBytes()), knownOperation: lookUp)
        #expect(asked == [Array("example.longOperationName".utf8), Array("other.name".utf8)])
        #expect(first.envelope.operation == known)
        #expect(second.envelope.operation == "other.name")
        #expect(first.body == [7] && second.body == [8])
    }

    @Test func aMessageInPlace_saysWhereItsFrameLies_andDetachedIsTheSameFrameAlone() throws {
        var decoder = FrameDecoder()
        let one = Self.frame(1, "a.b", body: [1, 2])
        let two = Self.frame(2, "a.b", body: [3, 4, 5, 6])
        decoder.append(one + two)
        _ = try decoder.nextFrameBytes()
        let message = try Message(frame: try #require(try decoder.nextFrameBytes()))
        #expect(message.payloadStart == one.count + FrameEncoder.headerSize)
        #expect(message.payloadCount == two.count - FrameEncoder.headerSize)
        #expect(message.bodyCount == 4)
        let detached = message.detached()
        #expect(detached.payload == Array(two.dropFirst(FrameEncoder.headerSize)))
        #expect(detached.payloadStart == 0 && detached.bodyEnd == detached.payload.count)
        #expect(detached.envelope == message.envelope && detached.body == message.body)
        let owned = try Message(payload: detached.payload)
        #expect(owned.detached().payload == owned.payload)
    }

    @Test func anOperationLengthPastTheFrame_isTruncated_withoutAskingForTheName() throws {
        var bytes = Array(Self.frame(1, "a.b", body: []).dropFirst(FrameEncoder.headerSize))
        bytes[10] = 0x01 // the name's length: 256 and more, past the payload's end
        var asked = false
        #expect(throws: EnvelopeError.truncated) {
            _ = try Message(frame: ByteReader(bytes)) { _ in
                asked = true
                return nil
            }
        }
        #expect(!asked)
    }
}
