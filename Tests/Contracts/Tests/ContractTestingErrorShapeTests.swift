import Testing
import VerticalsContractTesting
import VerticalsWire

/// The contract guard's errors in the framework's one error shape (`CodedError`): a code to
/// branch on, a message, and the file as a detail.
struct ContractTestingErrorShapeTests {
    @Test func aFixtureWithoutItsOperation_isMalformed_namingTheFile() {
        let error = #expect(throws: FixtureFileError.self) {
            try GoldenFixture(fileText: "{}", path: "Fixtures/alpha/get.json")
        }

        #expect(error?.code == .malformed && error?.detail("path") == "Fixtures/alpha/get.json")
        #expect(error?.description == "Fixtures/alpha/get.json: no `operation`")
    }

    @Test func dumpPackageOutputWithoutTargets_isUnreadable() {
        let error = #expect(throws: VerticalRuleError.self) {
            try VerticalRule.targets(dumpPackageJSON: "{}")
        }

        #expect(error?.code == .unreadable && error?.description == "dump-package printed no `targets` array")
    }
}
