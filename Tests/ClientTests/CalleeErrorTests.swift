import Testing
import VerticalsWire

@testable import VerticalsClient

/// A callee's error as its caller reads it (``ServiceError/init(fromCallee:)``): whatever the
/// callee sent, what is kept, and what a handler passes on, stays within a stated size.
struct CalleeErrorTests {
    @Test func fromCallee_givenAFrameOfInvalidUTF8AndManyDetails_keepsAFewKiB() throws {
        // What a compromised callee sends: 256 KiB of 0xFF as the message (each byte reads as the
        // three bytes of U+FFFD) and 64 details of 4 KiB each.
        var body = BodyWriter(capacity: 1 << 20)
        body.write(1, ErrorCode.invalidInput)
        body.write(2, [UInt8](repeating: 0xFF, count: 256 << 10))
        body.write(3, (0..<64).map { ErrorDetail("key\($0)", String(repeating: "v", count: 4 << 10)) })
        body.write(4, true)
        let kept = try ServiceError(fromCallee: Self.errorFrame(body.buffer.bytes))
        #expect(kept.code == .invalidInput)
        #expect(kept.retryable)
        #expect(kept.message.utf8.count <= ServiceError.calleeMessageMaxBytes)
        #expect(kept.message.hasPrefix("\u{FFFD}\u{FFFD}"))
        #expect(kept.message.hasSuffix("[cut: \(256 << 10) bytes in all]"))
        #expect(kept.details.count == ServiceError.calleeMaxDetails)
        #expect(kept.details.first?.key == "key0")
        #expect(kept.details.allSatisfy { $0.value.utf8.count <= PeerText.findingMaxBytes })
        let encoded = Message.frame(Envelope(kind: .error, correlationID: 1), body: kept)
        let bound =
            ServiceError.calleeMessageMaxBytes + ServiceError.calleeMaxDetails * 2 * PeerText.findingMaxBytes + 1024
        #expect(encoded.count <= bound)
    }

    @Test func fromCallee_givenAMessageCutInsideACharacter_cutsOnACharacterBoundary() throws {
        // Four-byte characters: the bound falls inside one, which is left out whole.
        let sent = ServiceError(.conflict, String(repeating: "𝄞", count: 2_000))
        let kept = try ServiceError(fromCallee: Self.errorFrame(sent))
        #expect(kept.message.utf8.count <= ServiceError.calleeMessageMaxBytes)
        #expect(kept.message.unicodeScalars.allSatisfy { $0 == "𝄞" || $0.isASCII || $0 == "…" })
        #expect(kept.message.hasPrefix(String(repeating: "𝄞", count: 100)))
    }

    @Test func fromCallee_givenAnUnknownCodeAFrameLong_keepsItCut() throws {
        var body = BodyWriter(capacity: 1 << 16)
        body.write(1, String(repeating: "x", count: 60_000))
        let kept = try ServiceError(fromCallee: Self.errorFrame(body.buffer.bytes))
        guard case .unknown(let raw) = kept.code else {
            Issue.record("an unknown code read as \(kept.code)")
            return
        }
        #expect(raw.utf8.count <= ServiceError.calleeCodeMaxBytes)
    }

    @Test func fromCallee_givenNoCode_throwsMissingField() {
        var body = BodyWriter(capacity: 64)
        body.write(2, "no code")
        #expect(throws: WireDecodingError.self) { try ServiceError(fromCallee: Self.errorFrame(body.buffer.bytes)) }
    }

    @Test func fromCallee_givenAShortError_keepsItAsItCame() throws {
        let sent = ServiceError(
            .notFound, String(repeating: "é", count: 2_000), details: [ErrorDetail("id", "c_0001")], retryable: true)
        #expect(try ServiceError(fromCallee: Self.errorFrame(sent)) == sent)
    }

    @Test func fromCallee_givenAnErrorReadInPlaceBeforeAnotherFrame_readsItsOwnBodyOnly() throws {
        // As the client reads it: in the connection's read buffer, the next frame right after it.
        let sent = ServiceError(.notFound, "the first", details: [ErrorDetail("id", "c_0001")])
        let first = Message.frame(Envelope(kind: .error, correlationID: 1), body: sent)
        let next = Message.frame(Envelope(kind: .error, correlationID: 2), body: ServiceError(.conflict, "the next"))
        let inPlace = try Message(frame: ByteReader(first + next, start: 4, end: first.count))
        #expect(try ServiceError(fromCallee: inPlace) == sent)
    }

    /// An error frame, decoded as its caller receives it, carrying `error`.
    static func errorFrame(_ error: ServiceError) throws -> Message {
        try Message(payload: Array(Message.frame(Envelope(kind: .error, correlationID: 1), body: error).dropFirst(4)))
    }

    /// An error frame, decoded as its caller receives it, whose body is `body`.
    static func errorFrame(_ body: [UInt8]) throws -> Message {
        try Message(payload: Array(Message.frame(Envelope(kind: .error, correlationID: 1), rawBody: body).dropFirst(4)))
    }
}
