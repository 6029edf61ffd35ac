import IOInterface

/// Why a booking request was refused: each case maps to one typed wire error.
public enum BookingError: Error, Equatable {
    /// A field was out of range; names the field.
    case invalid(field: String, reason: String)
    /// The patient already has a booking that overlaps.
    case patientBusy(existingID: String)
    /// The clinic's capacity for this service is taken for that time.
    case slotFull
    /// The same requestID was used for a different booking.
    case requestIDReused
    /// The clinic cannot take the booking: names the field at fault (`service` when the clinic
    /// does not offer it, `startsAt` when it is closed then) and why.
    case clinicRefuses(field: String, reason: String)
    /// No booking with that id.
    case notFound(String)
    /// The booking belongs to someone else.
    case notOwner
    /// The booking is already cancelled.
    case alreadyCancelled

    /// The typed error a caller receives.
    public var serviceError: ServiceError {
        switch self {
        case .invalid(let field, let reason):
            ServiceError(.invalidInput, "\(field): \(reason)", details: [ErrorDetail("field", field)])
        case .patientBusy(let existingID):
            ServiceError(
                .conflict, "you already have a booking at that time (\(existingID)); cancel it or pick another time",
                details: [ErrorDetail("conflictsWith", existingID)])
        case .slotFull:
            ServiceError(.conflict, "that slot is fully booked at this clinic; pick another time")
        case .requestIDReused:
            ServiceError(
                .conflict, "this requestID was already used for a different booking; use a new requestID",
                details: [ErrorDetail("field", "requestID")])
        case .clinicRefuses(let field, let reason):
            ServiceError(.invalidInput, reason, details: [ErrorDetail("field", field)])
        case .notFound(let id):
            ServiceError(.notFound, "no booking \(id)", details: [ErrorDetail("id", id)])
        case .notOwner:
            ServiceError(.permissionDenied, "this booking belongs to another patient")
        case .alreadyCancelled:
            ServiceError(.conflict, "this booking is already cancelled")
        }
    }
}
