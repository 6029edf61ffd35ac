import IOInterface
import VerticalsContract
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

extension StubCaller {
    /// Stubs identity's `authenticate` as a vertical's tests need it: a token in `sessions` is
    /// its principal; any other is `unauthenticated`, as identity answers an unknown token.
    ///
    /// ```swift
    /// let caller = StubCaller().identity(sessions: ["token-admin": .fixture(roles: [.admin])])
    /// ```
    @discardableResult
    public func identity(sessions: [String: Identity.Principal]) -> StubCaller {
        on(Identity.authenticate) { (input: Identity.TokenInput) throws(ServiceError) in
            guard let principal = sessions[input.token] else {
                throw ServiceError(.unauthenticated, "the session token is not valid; log in again")
            }
            return principal
        }
    }

    /// Stubs identity as down: every `authenticate` fails with `code`, as a real client's would.
    @discardableResult
    public func identityDown(_ code: ErrorCode = .unavailable) -> StubCaller {
        on(Identity.authenticate) { (_: Identity.TokenInput) throws(ServiceError) -> Identity.Principal in
            throw ServiceError(code, "identity is not running")
        }
    }
}
