import Testing
import VerticalsClient
import VerticalsWire

/// `BuildDescription.ReadError` in the framework's one error shape (`CodedError`): its reason is
/// its code, and it prints as before.
struct BuildDescriptionReadErrorShapeTests {
    @Test(arguments: [
        ([UInt8](), BuildDescription.ReadError.Code.empty),
        (Array("{}".utf8), .malformed),
        ([UInt8](repeating: 0x20, count: BuildDescription.maxBytes + 1), .tooLarge),
    ])
    func outputThatCannotBeRead_hasTheCodeOfItsReason(bytes: [UInt8], code: BuildDescription.ReadError.Code) {
        let error = #expect(throws: BuildDescription.ReadError.self) { try BuildDescription.read(bytes) }

        #expect(error?.code == code && error?.code.description == error?.reason.rawValue)
        #expect(error?.message == error?.description && error?.description == error?.detail)
    }
}
