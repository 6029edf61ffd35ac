import Testing
import VerticalsTesting
import VerticalsWire

/// An error that keeps its parts in one `CodedErrorStorage` (`StoredCodedError`) reads them from
/// it, builds itself with `init(_:_:details:cause:)`, and compares as every `CodedError` does:
/// code, message and details, never the cause.
struct CodedErrorStorageTests {
    struct Sample: StoredCodedError {
        let storage: CodedErrorStorage<Sample>
        init(storage: CodedErrorStorage<Sample>) { self.storage = storage }
    }

    struct Cause: Error {}

    @Test func anErrorMadeFromItsParts_readsThemFromItsStorage() {
        let error = Sample(.broken, "the widget broke", details: [ErrorDetail("path", "/w")], cause: Cause())

        #expect(error.code == .broken)
        #expect(error.message == "the widget broke" && error.description == "the widget broke")
        #expect(error.detail("path") == "/w" && error.details == error.storage.details)
        #expect(error.cause is Cause)
    }

    @Test func theCause_isKeptButNotCompared_andTheOtherPartsAre() {
        expectCauseIsKeptButNotCompared(
            { Sample(.broken, "the widget broke", details: [ErrorDetail("path", "/w")], cause: $0) },
            differsFrom: Sample(.lost, "the widget broke", details: [ErrorDetail("path", "/w")]),
            Sample(.broken, "the widget is lost", details: [ErrorDetail("path", "/w")]),
            Sample(.broken, "the widget broke", details: [ErrorDetail("path", "/v")]))
    }
}

extension ErrorKind where Domain == CodedErrorStorageTests.Sample {
    static var broken: Self { Self("broken") }
    static var lost: Self { Self("lost") }
}
