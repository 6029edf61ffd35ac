import IOInterface
import VerticalsContract

/// Creates the first administrator of a fresh suite (`svc-supervisor admin create`).
///
/// Who may: the *operator* only, exactly whom the operation's `operatorOnly` mark admits, as
/// the host decided when it admitted the connection (``VerticalsServiceKit/RequestContext/callerIsOperator``):
/// root, identity's own uid, a member of the operator group (its primary group), or the operator
/// certificate over mutual TLS. Under systemd and under svc-supervisor as root each vertical runs
/// as its own user, so another vertical cannot make itself admin. And when: only while no account
/// has the `admin` role; afterwards admins grant the role (``ChangeRole``), so a stolen local
/// shell cannot mint a second admin silently.
package struct CreateFirstAdmin: Sendable {
    let world: World

    /// A use case over `world`.
    package init(world: World) {
        self.world = world
    }

    /// Registers `email` with the `patient` and `admin` roles; throws
    /// ``IdentityFailure/notOperator``, ``IdentityFailure/adminExists`` or what
    /// ``RegisterUser`` throws.
    package func execute(email: String, password: String, displayName: String, callerIsOperator: Bool) async throws
        -> User
    {
        guard callerIsOperator else { throw IdentityFailure.notOperator }
        // Checked first to spare a hash; the insert checks again in its transaction.
        guard try await !world.users.adminExists() else { throw IdentityFailure.adminExists }
        return try await RegisterUser(world: world).execute(
            email: email, password: password, displayName: displayName, firstAdmin: true)
    }
}
