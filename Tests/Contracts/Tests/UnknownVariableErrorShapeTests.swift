import Testing
import VerticalsContractTesting
import VerticalsWire

/// `UnknownVariable` in the framework's one error shape (`CodedError`): a code, the variable's
/// name as a detail, and it prints as before.
struct UnknownVariableErrorShapeTests {
    @Test(arguments: ["{{clinicId}}", "clinic {{clinicId}} is closed"])
    func aPlaceholderNoStateSets_isAnUnknownVariable_givingItsName(text: String) {
        #expect {
            _ = try JSONValue.string(text).substituting(["other": .string("x")])
        } throws: { error in
            guard let error = error as? UnknownVariable else { return false }
            return error.code == .unknownVariable && error.detail("name") == "clinicId"
                && error.description == "no variable {{clinicId}}: the provider state does not set it"
        }
    }
}
