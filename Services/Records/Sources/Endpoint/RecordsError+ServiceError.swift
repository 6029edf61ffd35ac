import IOInterface
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// The wire form of records' refusals: a code to branch on, a message for a person.
extension RecordsError: ServiceErrorConvertible {
    /// The `ServiceError` a caller sees for this refusal.
    package var serviceError: ServiceError {
        switch self {
        case .invalid(let field, let reason):
            ServiceError(.invalidInput, "\(field) \(reason).", field: field)
        case .notFound(let id):
            ServiceError(
                .notFound, "No entry has id \"\(id)\"; list your entries with records.history.", detail: "id", id)
        case .notOwner(let id):
            ServiceError(
                .permissionDenied, "Entry \"\(id)\" is not in your history; you can delete only your own entries.",
                detail: "id", id)
        }
    }
}
