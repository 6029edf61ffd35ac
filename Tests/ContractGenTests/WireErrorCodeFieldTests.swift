import Testing
import VerticalsContractGen

/// `wire.ErrorCode`, the framework's error codes, as a field's type: every contract may name it
/// without declaring it, and it becomes VerticalsWire's `ErrorCode`, whose own schema the field
/// carries. Its misuses (a default, another `wire` type, a contract called `wire`) are among
/// ``ContractDiagnosticTests``' bad inputs.
@Suite struct WireErrorCodeFieldTests {
    static let contract = """
        contract shop

        /// The Input of ``Shop/refuse``.
        message RefuseInput {
            /// The code to refuse with.
            1 code: wire.ErrorCode
            /// The code to end with, when given.
            2 then: wire.ErrorCode?
            /// Codes the caller may see.
            3 codes: [wire.ErrorCode]
        }
        """

    @Test func aWireErrorCodeField_isVerticalsWiresErrorCode() throws {
        GeneratedSwift.expect(
            try GeneratedSwift.of(Self.contract),
            contains: [
                "public var code: VerticalsWire.ErrorCode",
                "public var then: VerticalsWire.ErrorCode?",
                "public var codes: [VerticalsWire.ErrorCode]",
                #".required(1, "code", .enumeration(VerticalsWire.ErrorCode.schema), doc: "The code to refuse with."),"#,
            ])
    }
}
