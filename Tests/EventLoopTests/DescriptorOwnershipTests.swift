import Foundation
import Glibc
import Testing

/// A test fixture that closes a descriptor twice closes, the second time, a socket another
/// thread just opened — in the full run an event loop's accepted or connecting socket, which
/// libuv then either loses for good (a connection whose `onClose` never runs) or cannot add to
/// epoll again (`abort()` on the loop thread). These check the fixtures themselves.
@Suite("Fixtures close only their own descriptors")
struct DescriptorOwnershipTests {
    @Test func rawClient_thatCannotConnect_closesItsSocketOnce() async throws {
        try await withTemporaryDirectory { directory in
            let nobody = directory + "/nobody.sock"
            let stolen = try await descriptorsClosedUnderAnotherThread(repeating: {
                if (try? RawClient(connectingTo: nobody)) != nil { Issue.record("connected to nobody") }
            })
            #expect(stolen == 0, "\(stolen) sockets of another thread were closed by a failed RawClient")
        }
    }
}
