import Testing
import VerticalsTesting
import VerticalsWire

/// `EnvelopeError` in the framework's one error shape (`CodedError`): each refusal of an envelope
/// has its code, and its message names the value that was wrong.
struct EnvelopeErrorShapeTests {
    @Test func eachRefusal_hasItsCode_andNamesTheValue() {
        #expect(EnvelopeError.truncated.code == .truncated)
        #expect(EnvelopeError.unsupportedVersion(9).code == .unsupportedVersion)
        #expect(EnvelopeError.unknownKind(8).description == "envelope kind 8 is not one of 1...7")
        #expect(EnvelopeError.operationTooLong(600).code == .operationTooLong)
    }

    @Test func aCause_isKeptButNotCompared() {
        expectCauseIsKeptButNotCompared(
            { EnvelopeError(.unknownKind, "envelope kind 8 is not one of 1...7", cause: $0) },
            differsFrom: EnvelopeError(.truncated, "envelope kind 8 is not one of 1...7"),
            EnvelopeError(.unknownKind, "envelope kind 9 is not one of 1...7"))
    }
}
