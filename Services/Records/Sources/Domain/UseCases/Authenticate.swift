import IOInterface
import ServiceKit

/// Turns a session token into the user behind it, through identity.
///
/// Identity's `unauthenticated` passes through unchanged, and so do `unavailable` and
/// `deadlineExceeded` when identity is down or slow: records never guesses who is calling.
struct Authenticate {
    let caller: any ServiceCalling

    func execute(_ token: String) async throws(ServiceError) -> Identity.Principal {
        guard !token.isEmpty else {
            throw ServiceError(.unauthenticated, "A session token is required; log in first.")
        }
        return try await caller.call(Identity.authenticate, .init(token: token))
    }
}
