import Testing
import VerticalsSettings
import VerticalsWire

/// `SettingError` in the framework's one error shape (`CodedError`): a code to branch on, a
/// message, and details a program reads.
struct SettingErrorShapeTests {
    static let workers = Setting<Int>(
        "VERTICALS_TEST_WORKERS", type: "integer", default: 2, defaultText: "2", allowed: "1...8",
        doc: "Workers.", parse: { Int($0).flatMap { (1...8).contains($0) ? $0 : nil } })

    @Test func aValueOutOfRange_isNotAllowed_namingTheVariableTheValueAndWhatIsAllowed() {
        let error = #expect(throws: SettingError.self) {
            try Self.workers.value(in: ["VERTICALS_TEST_WORKERS": "9"])
        }

        #expect(error?.code == .notAllowed)
        #expect(error?.detail("variable") == "VERTICALS_TEST_WORKERS")
        #expect(error?.detail("value") == "9" && error?.detail("allowed") == "1...8")
        #expect(
            error?.description == "VERTICALS_TEST_WORKERS=9 is not allowed: expected 1...8 (unset it for the default)")
    }

    @Test func itCompares_byVariableValueAndAllowed() {
        let error = SettingError(variable: "A", value: "x", allowed: "on, off")

        #expect(error == SettingError(variable: "A", value: "x", allowed: "on, off"))
        #expect(error != SettingError(variable: "A", value: "y", allowed: "on, off"))
        #expect(error.message == error.description && error.cause == nil)
    }
}
