import IOInterface
import ServiceKit

/// Turns a session token into the patient behind it, through identity.
struct Authenticate {
    let caller: any ServiceCalling

    func execute(_ token: String) async throws(ServiceError) -> Identity.Principal {
        guard !token.isEmpty else {
            throw ServiceError(.unauthenticated, "a session token is required: log in first")
        }
        return try await caller.call(Identity.authenticate, .init(token: token))
    }
}
