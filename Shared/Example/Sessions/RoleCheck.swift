import IOInterface
import VerticalsContract

/// The one rule of roles: an operation that needs a role is refused unless the user holds it.
/// Identity applies it to its own users, every other vertical through ``SessionCheck``.
public enum RoleCheck {
    /// Returns when `roles` holds `role`, else throws `refusal`.
    ///
    /// ```swift
    /// try RoleCheck.require(.admin, among: caller.roles, otherwise: IdentityFailure.notAdmin)
    /// ```
    public static func require<Refusal: Error>(
        _ role: Identity.Role, among roles: [Identity.Role], otherwise refusal: @autoclosure () -> Refusal
    ) throws(Refusal) {
        guard roles.contains(role) else { throw refusal() }
    }
}
