import IOInterface
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// The wire form of clinics' refusals: a code to branch on, a message for a person.
extension ClinicError: ServiceErrorConvertible {
    /// The `ServiceError` a caller sees for this refusal.
    package var serviceError: ServiceError {
        switch self {
        case .invalid(let field, let reason):
            ServiceError(.invalidInput, "\(field) \(reason).", field: field)
        case .notFound(let id):
            ServiceError(
                .notFound, "No clinic has id \"\(id)\"; find clinics with clinics.search or clinics.nearest.",
                detail: "id", id)
        case .notAdmin(let userID):
            ServiceError(
                .permissionDenied,
                "Only admins may add clinics; ask an admin to add it or to grant you the admin role.",
                detail: "userID", userID)
        }
    }
}
