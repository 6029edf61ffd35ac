import GRDB
import Testing
import VerticalsStorage
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
        let cause = DatabaseError(resultCode: .SQLITE_CORRUPT, message: "database disk image is malformed")
        let withCause = StoreError(.unreadable, "not a whole store", cause: cause)
        let without = StoreError(.unreadable, "not a whole store")

        #expect(withCause == without)
        #expect((withCause.cause as? DatabaseError)?.resultCode == .SQLITE_CORRUPT)
        #expect(without.cause == nil)
        #expect(withCause != StoreError(.notAStore, "not a whole store"))
    }

    @Test func aStoreTheCheckFindsMissing_isCodeMissing_withNoHolder() {
        let error = StoreError(.missing, "there is no store yet")

        #expect(error.code == .missing)
        #expect(error.holderPID == nil)
        #expect(!error.restartCannotHelp)
    }
}
