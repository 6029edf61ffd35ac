import CLibUV
import Synchronization
import Testing
@testable import VerticalsEventLoop

/// An accept that fails for want of a descriptor is counted and told, and the listener goes on
/// serving: a test or an operator sees why peers were closed instead of waiting for them.
struct DescriptorShortageTests {
    @Test func acceptFailing_forWantOfADescriptor_isCountedAndTold_andTheListenerKeepsServing() async throws {
        try await withSocketPath("shortage.sock") { path, loop in
            let server = try await startEchoServer(at: path, on: loop)
            let told = Mutex<[EventLoopError]>([])
            let shortages = try await loop.submit {
                let listener = server.value
                listener.onAcceptError = { error in told.withLock { $0.append(error) } }
                // What libuv reports when accept(2) says EMFILE, then ENFILE; then another failure.
                listener.acceptFailed(UV_EMFILE.rawValue)
                listener.acceptFailed(UV_ENFILE.rawValue)
                listener.acceptFailed(UV_ECONNABORTED.rawValue)
                return listener.descriptorShortages
            }
            #expect(shortages == 2)
            #expect(told.withLock { $0.map(\.isDescriptorShortage) } == [true, true, false])
            try UnixListenerTests.expectEchoes(at: path, "still serving")
        }
    }
}
