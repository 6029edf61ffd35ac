import Testing
import VerticalsClient
import VerticalsContract
import VerticalsWire

/// Every description the suite and the framework serve is within the bounds and the grammar of
/// names a peer holds a description to, so honest peers judge each other as before.
struct DescriptionBoundsTests {
    @Test func everyLockedDescription_isWithinTheBounds() {
        let lock = ContractLock.current()
        #expect(!lock.services.isEmpty)
        for description in lock.services {
            #expect(DescriptionBounds.problem(description) == nil, "\(description.name)")
        }
    }
}
