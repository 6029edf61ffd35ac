import IOInterface
import VerticalsContract

/// Why a clinics use case refused; the Endpoint turns each case into a ``ServiceError``.
package enum ClinicError: Error, Equatable {
    /// A field of the input broke a rule the caller can fix.
    case invalid(field: String, reason: String)
    /// No clinic has this id.
    case notFound(id: String)
    /// The caller is signed in but lacks the role the operation needs.
    case notAdmin(userID: String)
}
