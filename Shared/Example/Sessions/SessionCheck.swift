import IOInterface
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsStorage
import VerticalsWire

/// Who is behind a session token, asked of identity: the one way every vertical but identity
/// checks a caller's token.
///
/// An empty token is refused here, without a call (`unauthenticated`). Identity's answers pass
/// through as they are: `unauthenticated` for a token it does not know (or one expired or logged
/// out), `unavailable` or `deadlineExceeded` when it cannot answer in time. A vertical never
/// guesses who is calling.
///
/// ```swift
/// let patient = try await world.sessionCheck.principal(token: input.token)
/// let admin = try await world.sessionCheck.principal(token: input.token, withRole: .admin) {
///     ClinicError.notAdmin(userID: $0.userID)
/// }
/// ```
public struct SessionCheck: Sendable {
    /// Reaches identity.
    public let caller: any ServiceCalling

    /// A check through `caller`.
    public init(caller: any ServiceCalling) {
        self.caller = caller
    }

    /// The user behind `token`, with their roles.
    public func principal(token: String) async throws(ServiceError) -> Identity.Principal {
        guard !token.isEmpty else { throw Self.missingToken }
        return try await caller.call(Identity.authenticate, .init(token: token))
    }

    /// The user behind `token`, who must hold `role`; otherwise throws the vertical's own
    /// `refusal` for that user (each vertical says in its words why it refuses).
    public func principal<Refusal: Error>(
        token: String, withRole role: Identity.Role, otherwise refusal: (Identity.Principal) -> Refusal
    ) async throws -> Identity.Principal {
        let principal = try await principal(token: token)
        try RoleCheck.require(role, among: principal.roles, otherwise: refusal(principal))
        return principal
    }

    /// The answer to a request that carries no token.
    static let missingToken = ServiceError(.unauthenticated, "a session token is required: log in first")
}

extension VerticalWorld {
    /// Checks callers' session tokens through this World's ``VerticalWorld/caller``.
    public var sessionCheck: SessionCheck { SessionCheck(caller: caller) }
}
