import IOInterface
import ServiceKit

/// Turns the caller's session token into their user id by asking identity.
///
/// Identity's answers pass through as they are: `unauthenticated` for a bad token,
/// `unavailable` or `deadlineExceeded` when identity cannot answer in time.
public struct AuthenticateCaller: Sendable {
    let world: World

    /// A use case over `world`.
    public init(world: World) {
        self.world = world
    }

    /// The id of the user behind `token`.
    public func execute(token: String) async throws -> String {
        try await world.caller.call(Identity.authenticate, .init(token: token)).userID
    }
}
