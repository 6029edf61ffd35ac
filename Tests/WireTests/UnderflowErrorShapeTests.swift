import Testing
import VerticalsWire

/// `ByteReader.Underflow` in the framework's one error shape (`CodedError`): a code, and where
/// the read started as a detail.
struct UnderflowErrorShapeTests {
    @Test func aReadPastTheEnd_isAnUnderflow_givingWhereItStarted() {
        var reader = ByteReader([1, 2, 3])
        _ = try? reader.readByte()

        #expect {
            try reader.readUInt32BE()
        } throws: { error in
            guard let error = error as? ByteReader.Underflow else { return false }
            return error.code == .underflow && error.detail("offset") == "1" && error.offset == 1
                && error.message == error.description && error.cause == nil
        }
    }
}
