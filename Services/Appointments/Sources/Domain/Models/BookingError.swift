/// Why a booking request was refused: each case maps to one typed wire error.
package enum BookingError: Error, Equatable {
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

}
