import IOInterface
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// The wire form of appointments' refusals: a code to branch on, a message for a person.
extension BookingError: ServiceErrorConvertible {
    /// The `ServiceError` a caller sees for this refusal.
    package var serviceError: ServiceError {
        switch self {
        case .invalid(let field, let reason):
            ServiceError(.invalidInput, "\(field): \(reason)", field: field)
        case .patientBusy(let existingID):
            ServiceError(
                .conflict, "you already have a booking at that time (\(existingID)); cancel it or pick another time",
                detail: "conflictsWith", existingID)
        case .slotFull:
            ServiceError(.conflict, "that slot is fully booked at this clinic; pick another time")
        case .requestIDReused:
            ServiceError(
                .conflict, "this requestID was already used for a different booking; use a new requestID",
                field: "requestID")
        case .clinicRefuses(let field, let reason):
            ServiceError(.invalidInput, reason, field: field)
        case .notFound(let id):
            ServiceError(.notFound, "no booking \(id)", detail: "id", id)
        case .notOwner:
            ServiceError(.permissionDenied, "this booking belongs to another patient")
        case .alreadyCancelled:
            ServiceError(.conflict, "this booking is already cancelled")
        }
    }
}
