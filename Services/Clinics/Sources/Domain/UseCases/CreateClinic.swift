import IOInterface
import Sessions
import VerticalsContract
import VerticalsServiceKit

/// Adds a clinic to the network; only an admin may.
package struct CreateClinic {
    let world: World

    /// Creates the use case.
    package init(world: World) {
        self.world = world
    }

    /// Checks the caller is an admin (through identity), validates, stores and returns the clinic.
    ///
    /// Identity's `unauthenticated`, `unavailable` and `deadlineExceeded` pass through
    /// unchanged, and nothing is stored unless every check passed.
    package func execute(token: String, draft: ClinicDraft) async throws -> Clinics.Clinic {
        let principal = try await world.sessionCheck.principal(token: token, withRole: .admin) {
            ClinicError.notAdmin(userID: $0.userID)
        }
        let clinic = try draft.validated().clinic(id: world.newID(), createdAt: world.now())
        try await world.clinics.insert(clinic)
        world.logger.info("clinic created", metadata: ["id": "\(clinic.id)", "by": "\(principal.userID)"])
        return clinic
    }
}
