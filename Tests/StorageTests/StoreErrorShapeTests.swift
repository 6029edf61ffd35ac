import Testing
import VerticalsStorage
import VerticalsTesting
import VerticalsWire

/// `StoreError` in the framework's one error shape (`CodedError`): a code to branch on, a message,
/// details a program reads, and a cause that is kept but never compared.
struct StoreErrorShapeTests {
    @Test func aHeldStore_namesItsHolderInADetail_andARestartCannotHelp() {
        let error = StoreError(.held, "the store is locked", details: [ErrorDetail("pid", "4242")])

        #expect(error.code == .held)
        #expect(error.holderPID == 4242)
        #expect(error.detail("pid") == "4242")
        #expect(error.restartCannotHelp)
        #expect(error.description == "the store is locked")
    }

    @Test(arguments: [
        (StoreError.Code.held, true), (.otherOwner, true), (.newerSchema, true), (.unreadable, true),
        (.notAStore, true), (.missing, false), (.system, false), (.refused, false), (.exists, false),
        (.tooLarge, false), (.readerFailed, false),
    ])
    func whetherARestartCanHelp_isTheCodes(_ code: StoreError.Code, _ cannotHelp: Bool) {
        #expect(StoreError(code, "m").restartCannotHelp == cannotHelp)
    }

    @Test func theCause_isKept_butNotCompared() {
        expectCauseIsKeptButNotCompared(
            { StoreError(.unreadable, "not a whole store", cause: $0) },
            differsFrom: StoreError(.notAStore, "not a whole store"),
            StoreError(.unreadable, "not a whole store", details: [ErrorDetail("pid", "1")]))
    }

    @Test func aStoreTheCheckFindsMissing_isCodeMissing_withNoHolder() {
        let error = StoreError(.missing, "there is no store yet")

        #expect(error.code == .missing)
        #expect(error.holderPID == nil)
        #expect(!error.restartCannotHelp)
    }
}
