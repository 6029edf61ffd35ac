import Testing
import VerticalsContractGen

/// `secret` at the end of a field's line: the schema marks the field (`FieldDescriptor.secret`),
/// whatever the field's presence; any other word there is an error at its place.
@Suite struct SecretFieldTests {
    static let contract = """
        contract shop

        /// The Input of ``Shop/pay``.
        input PayInput {
            /// The card's owner.
            1 owner: string
            /// The card's PIN.
            2 pin: string(maxBytes: 8) secret
            /// A second factor, when the bank asks for one.
            3 code: string? secret
        }
        """

    @Test func secretFields_areMarkedInTheSchema_andNoOthers() throws {
        let swift = try GeneratedSwift.of(Self.contract)
        #expect(
            swift.contains(#".required(2, "pin", .string, maxBytes: 8, doc: "The card's PIN.").markedSecret,"#),
            "\(swift)")
        #expect(
            swift.contains(
                #".optional(3, "code", .string, maxBytes: 4096, doc: "A second factor, when the bank asks for one.").markedSecret,"#
            ), "\(swift)")
        #expect(
            swift.contains(#".required(1, "owner", .string, maxBytes: 4096, doc: "The card's owner."),"#), "\(swift)")
    }

    @Test func anotherWordAfterAField_isReportedAtIt() {
        let text = "contract shop\n/// A.\ninput A {\n    /// B.\n    1 b: string hidden\n}\n"
        let found = ContractDiagnosticTests.diagnostics(text)
        #expect(
            found.contains { $0.hasPrefix("bad.vcontract:5:17: error: a field's line may end with `secret`") },
            "\(found)")
    }
}
