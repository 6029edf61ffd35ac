import VerticalsEventLoop

/// What a handle's callback holds in a test of whether closing the handle lets go of it.
final class CallbackToken: Sendable {}

/// Checks that a loop handle releases its callback once closed: `openAndClose` runs on the loop
/// thread, opens a handle whose callback holds the token it is given, and closes it; the test
/// then waits until nothing holds the token.
func expectReleasesItsCallback(
    on loop: EventLoop, _ openAndClose: @escaping @Sendable (CallbackToken) throws -> Void
) async throws {
    let weakToken = try await loop.submit { () -> WeakBox<CallbackToken> in
        let token = CallbackToken()
        try openAndClose(token)
        return WeakBox(token)
    }
    try await eventually("the callback is released") { weakToken.object == nil }
}
