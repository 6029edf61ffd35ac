import Testing
import VerticalsContractGen

/// The generator's errors in the framework's error shape, taken from no other module: a code a
/// program switches on (with the names `ErrorKind` would print), the message, and the place as
/// details.
struct ContractErrorShapeTests {
    static func failure(_ text: String) -> ContractGenerationError? {
        guard case .failure(let error) = ContractGenerator.generate([.init(path: "bad.vcontract", text: text)])
        else { return nil }
        return error
    }

    @Test func textThatIsNotTheContractLanguage_isASyntaxDiagnostic_atItsPlace() throws {
        let error = try #require(Self.failure("contract shop\n/// A.\nmessage A {\n    /// B.\n    b: string\n}\n"))
        let diagnostic = try #require(error.diagnostics.first)

        #expect(error.code == .invalidContracts && error.code.rawValue == "invalidContracts")
        #expect(diagnostic.code == .syntax && diagnostic.code.rawValue == "syntax")
        #expect(diagnostic.details.map(\.key) == ["path", "line", "column"])
        #expect(diagnostic.details.map(\.value) == ["bad.vcontract", "5", "5"])
        #expect(error.message == error.description && error.message == diagnostic.description)
    }

    @Test func aDeclarationThatBreaksARule_isAnInvalidDeclaration() throws {
        let error = try #require(
            Self.failure(
                "contract shop\n/// A.\nmessage A {\n    /// B.\n    1 b: string\n    /// C.\n    1 c: int\n}\n"))

        #expect(error.diagnostics.map(\.code) == [.invalidDeclaration])
        #expect(error.diagnostics.first?.message.hasPrefix("tag 1 is already used by 'b' in A") == true)
    }
}
