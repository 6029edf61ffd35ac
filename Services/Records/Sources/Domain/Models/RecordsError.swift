/// Why a records use case refused; the Endpoint turns each case into a `ServiceError`.
package enum RecordsError: Error, Equatable {
    /// A field of the input broke a rule the caller can fix.
    case invalid(field: String, reason: String)
    /// No entry has this id.
    case notFound(id: String)
    /// The entry exists but belongs to someone else.
    case notOwner(id: String)
}
