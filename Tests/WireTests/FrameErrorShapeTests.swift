import Testing
import VerticalsWire

/// `FrameError` in the framework's one error shape (`CodedError`): a code for each refusal, an
/// oversized frame's length and limit as details, and it prints as before.
struct FrameErrorShapeTests {
    @Test func anEmptyFrame_hasItsCode_andNoDetails() {
        let error = FrameError.emptyFrame

        #expect(error.code == .emptyFrame && error.details.isEmpty)
        #expect(error.description == "frame length 0 is not allowed: every frame carries at least an envelope")
    }

    @Test func anOversizedFrame_givesItsLengthAndTheLimit_asDetails() {
        let error = FrameError.oversized(length: 70_000, limit: 65_536)

        #expect(error.code == .oversized && "\(error.code)" == "oversized")
        #expect(error.detail("length") == "70000" && error.detail("limit") == "65536")
        #expect(error.description == "frame length 70000 exceeds this receiver's limit of 65536 bytes")
    }
}
