import Testing
import VerticalsWire

@testable import VerticalsClient

/// A callee's error as its caller keeps it (``ServiceError/fromCallee``): whatever the callee
/// sent, what a handler passes on stays within a stated size.
struct CalleeErrorTests {
    @Test func fromCallee_givenAFrameOfInvalidUTF8AndManyDetails_keepsAFewKiB() throws {
        // What a compromised callee sends: 256 KiB of 0xFF as the message (each byte read as the
        // three bytes of U+FFFD) and 64 details of 4 KiB each.
        let invalid = String(decoding: [UInt8](repeating: 0xFF, count: 256 << 10), as: UTF8.self)
        let details = (0..<64).map { ErrorDetail("key\($0)", String(repeating: "v", count: 4 << 10)) }
        let sent = ServiceError(.invalidInput, invalid, details: details, retryable: true)
        let kept = sent.fromCallee
        #expect(kept.code == .invalidInput)
        #expect(kept.retryable)
        #expect(kept.message.utf8.count <= ServiceError.calleeMessageMaxBytes)
        #expect(kept.details.count == ServiceError.calleeMaxDetails)
        #expect(kept.details.allSatisfy { $0.value.utf8.count <= PeerText.findingMaxBytes })
        let encoded = Message.frame(Envelope(kind: .error, correlationID: 1), body: kept)
        let bound =
            ServiceError.calleeMessageMaxBytes + ServiceError.calleeMaxDetails * 2 * PeerText.findingMaxBytes + 1024
        #expect(encoded.count <= bound)
    }

    @Test func fromCallee_givenAShortError_keepsItAsItCame() {
        let sent = ServiceError(.notFound, "no clinic c_0001", details: [ErrorDetail("id", "c_0001")])
        #expect(sent.fromCallee == sent)
    }
}
