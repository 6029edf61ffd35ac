import Testing
import VerticalsWire

@Suite("Envelope")
struct EnvelopeTests {
    private static let traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

    private func written(_ envelope: Envelope) -> [UInt8] {
        var writer = ByteWriter()
        envelope.write(to: &writer)
        return writer.bytes
    }

    @Test(
        "every kind round-trips, with and without a traceparent", arguments: MessageKind.allCases, [nil, traceparent])
    func envelope_roundTrips(kind: MessageKind, traceparent: String?) throws {
        let envelope = Envelope(
            kind: kind, correlationID: 0x0102_0304_0506_0708, operation: "catalog.nearest",
            deadlineMicroseconds: 1_500_000, traceparent: traceparent)
        var reader = ByteReader(written(envelope) + [0xAA])
        #expect(try Envelope.read(from: &reader) == envelope)
        #expect(reader.remaining == 1, "the reader stops at the body")
    }

    @Test func envelope_hasItsDocumentedLayout() {
        let envelope = Envelope(kind: .request, correlationID: 7, operation: "a.b", deadlineMicroseconds: 258)
        #expect(hex(written(envelope)) == "01 01 00 00 00 00 00 00 00 07 00 03 61 2e 62 00 00 00 00 00 00 01 02 00")
    }

    @Test func envelope_withoutDeadline_hasNoRemainingTime() {
        #expect(Envelope(kind: .ping, correlationID: 1).remainingTime == nil)
        #expect(Envelope(kind: .ping, correlationID: 1, deadlineMicroseconds: 2_000).remainingTime == .milliseconds(2))
    }

    @Test("a payload cut anywhere inside the envelope is truncated", arguments: 0..<35)
    func envelope_givenAnyPrefix_throwsTruncated(length: Int) {
        let whole = written(
            Envelope(kind: .request, correlationID: 9, operation: "catalog.signIn", deadlineMicroseconds: 5))
        #expect(whole.count == 35)
        var reader = ByteReader(Array(whole.prefix(length)))
        #expect(throws: EnvelopeError.truncated) { try Envelope.read(from: &reader) }
    }

    /// Reads back a ping whose byte at `offset` is replaced by `value`.
    private func readPing(replacing offset: Int, with value: UInt8) throws -> Envelope {
        var bytes = written(Envelope(kind: .ping, correlationID: 1))
        bytes[offset] = value
        var reader = ByteReader(bytes)
        return try Envelope.read(from: &reader)
    }

    @Test("a version other than 1 is refused", arguments: [UInt8(0), 2, 255])
    func envelope_givenAnotherVersion_throwsUnsupportedVersion(version: UInt8) {
        #expect(throws: EnvelopeError.unsupportedVersion(version)) { try readPing(replacing: 0, with: version) }
    }

    @Test("a kind outside 1...7 is refused", arguments: [UInt8(0), 8, 255])
    func envelope_givenAnUnknownKind_throwsUnknownKind(kind: UInt8) {
        #expect(throws: EnvelopeError.unknownKind(kind)) { try readPing(replacing: 1, with: kind) }
    }

    @Test func envelope_givenAnOperationOfTheMaximumLength_accepts() throws {
        let name = String(repeating: "x", count: Envelope.maxOperationLength)
        var reader = ByteReader(written(Envelope(kind: .request, correlationID: 1, operation: name)))
        #expect(try Envelope.read(from: &reader).operation == name)
    }

    @Test func envelope_givenAnOperationPastTheMaximumLength_throwsOperationTooLong() {
        let name = String(repeating: "x", count: Envelope.maxOperationLength + 1)
        var reader = ByteReader(written(Envelope(kind: .request, correlationID: 1, operation: name)))
        #expect(throws: EnvelopeError.operationTooLong(513)) { try Envelope.read(from: &reader) }
    }

    @Test func envelope_writingStringsTooLongForTheirPrefix_stillWritesAParseableEnvelope() throws {
        let huge = String(repeating: "y", count: 70_000)
        var reader = ByteReader(written(Envelope(kind: .request, correlationID: 1, operation: huge)))
        #expect(throws: EnvelopeError.operationTooLong(65_535)) { try Envelope.read(from: &reader) }

        let longTrace = String(repeating: "0", count: 300)
        let envelope = Envelope(kind: .request, correlationID: 1, operation: "a.b", traceparent: longTrace)
        var traced = ByteReader(written(envelope) + [0x42])
        let read = try Envelope.read(from: &traced)
        #expect(read.traceparent == nil, "a traceparent no W3C header can be is dropped")
        #expect(try traced.readByte() == 0x42, "and the body still starts where it should")
    }

    /// Found by fuzz-envelope: 255 bytes of 0xC4 read as 255 U+FFFD (765 bytes), which no
    /// envelope can carry, so the envelope did not survive being framed again.
    @Test(arguments: [[UInt8](repeating: 0xC4, count: 255), [0x30, 0x0A, 0x30], [0xF0, 0x90, 0x80]])
    func envelope_traceparentNotPrintableASCII_readsAsAbsentAndReencodesTheSame(trace: [UInt8]) throws {
        let prefix = written(Envelope(kind: .cancel, correlationID: 7))
        let payload = Array(prefix.dropLast()) + [UInt8(trace.count)] + trace + [0x42]
        var reader = ByteReader(payload)
        let read = try Envelope.read(from: &reader)
        #expect(read.traceparent == nil)
        #expect(try reader.readByte() == 0x42)
        var again = ByteReader(written(read))
        #expect(try Envelope.read(from: &again) == read)
    }

    /// Found by fuzz-envelope: 500 bytes of 0xC4 are within the 512-byte limit, but read as 1,500
    /// bytes of U+FFFD, a name no envelope may carry: rejected like any name over the limit.
    @Test func envelope_operationOverTheLimitOnceInvalidBytesAreReplaced_isRejected() {
        let name = [UInt8](repeating: 0xC4, count: 500)
        let payload: [UInt8] =
            [1, 1] + [UInt8](repeating: 0, count: 8) + [0x01, 0xF4] + name + [UInt8](repeating: 0, count: 9)
        var reader = ByteReader(payload)
        #expect(throws: EnvelopeError.operationTooLong(1_500)) { try Envelope.read(from: &reader) }
    }

    @Test func envelopeErrors_sayWhatWasWrong() {
        #expect(EnvelopeError.truncated.description.contains("ends inside its envelope"))
        #expect(EnvelopeError.unsupportedVersion(2).description.contains("version 2"))
        #expect(EnvelopeError.unknownKind(9).description.contains("kind 9"))
        #expect(EnvelopeError.operationTooLong(600).description.contains("600 bytes"))
    }

    @Test func envelopeErrors_areComparedByCode_whateverTheValue() {
        #expect(EnvelopeError.unknownKind(9).code == .unknownKind)
        #expect(EnvelopeError.unknownKind(9) != EnvelopeError.unknownKind(8), "the message names the value")
        #expect(EnvelopeError.operationTooLong(600).code != EnvelopeError.truncated.code)
        #expect(EnvelopeError.unsupportedVersion(2).code.description == "unsupportedVersion")
    }

    @Test func message_givenAFramePayload_findsTheBody() throws {
        let frame = Message.frame(
            Envelope(kind: .error, correlationID: 3, operation: "catalog.signIn"),
            body: ServiceError(.unauthenticated, "wrong passphrase"))
        var decoder = FrameDecoder()
        decoder.append(frame)
        let message = try Message(payload: try #require(try decoder.nextFrame()))
        #expect(message.envelope.kind == .error)
        #expect(message.envelope.correlationID == 3)
        #expect(try message.decodeBody(as: ServiceError.self) == ServiceError(.unauthenticated, "wrong passphrase"))
        #expect(message.body == ServiceError(.unauthenticated, "wrong passphrase").encodedBody())
        #expect(Message.frame(message.envelope, rawBody: message.body) == frame)
    }
}
