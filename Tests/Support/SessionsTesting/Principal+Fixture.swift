import IOInterface
import VerticalsContract
import VerticalsWire

extension Identity.Principal {
    /// A principal with a default for every field: a patient, Ada, whose session outlives any test.
    public static func fixture(
        userID: String = "u_ada", displayName: String = "Ada Lovelace", roles: [Identity.Role] = [.patient],
        expiresAt: Timestamp = Timestamp(secondsSinceEpoch: 1_900_000_000)
    ) -> Self {
        .init(userID: userID, displayName: displayName, roles: roles, expiresAt: expiresAt)
    }
}
