@testable import NotificationsService
import Testing
import VerticalsTesting

/// The recipients identity confirmed: kept, bounded, never guessed.
struct KnownRecipientsTests {
    @Test func keepsWhatIdentityConfirmed_andNothingElse() {
        let known = KnownRecipients(capacity: 4)
        known.insert("u-ada")
        #expect(known.contains("u-ada"))
        #expect(!known.contains("u-bob"))
    }

    @Test func pastItsCapacity_startsOver_keepingTheNewestOnly() {
        let known = KnownRecipients(capacity: 2)
        known.insert("u-1")
        known.insert("u-2")
        known.insert("u-3")
        #expect(known.contains("u-3"))
        #expect(!known.contains("u-1") && !known.contains("u-2"), "at most 2 kept: the set started over")
    }
}
