import IOInterface
import VerticalsContract

/// Creates the first administrator of a fresh suite (`svc-supervisor admin create`).
///
/// Who may: a *local operator* only — a caller whose `SO_PEERCRED` uid is one of
/// ``World/operatorUIDs`` (root and identity's own uid). Under systemd each vertical runs as
/// its own `verticals-<name>` user, so another vertical (or anything else that can reach the
/// socket through the `verticals` group) cannot make itself admin; under svc-supervisor without
/// `user =`, the operator who started the suite is that uid. And when: only while no account has
/// the `admin` role; afterwards admins grant the role (``ChangeRole``), so a stolen local shell
/// cannot mint a second admin silently.
package struct CreateFirstAdmin: Sendable {
    let world: World

    /// A use case over `world`.
    package init(world: World) {
        self.world = world
    }

    /// Registers `email` with the `patient` and `admin` roles; throws
    /// ``IdentityFailure/notLocalOperator``, ``IdentityFailure/adminExists`` or what
    /// ``RegisterUser`` throws.
    package func execute(email: String, password: String, displayName: String, callerUID: UInt32?) async throws -> User {
        guard let callerUID, world.operatorUIDs.contains(callerUID) else { throw IdentityFailure.notLocalOperator }
        // Checked first to spare a hash; the insert checks again in its transaction.
        guard try await !world.users.adminExists() else { throw IdentityFailure.adminExists }
        return try await RegisterUser(world: world).execute(
            email: email, password: password, displayName: displayName, firstAdmin: true)
    }
}
