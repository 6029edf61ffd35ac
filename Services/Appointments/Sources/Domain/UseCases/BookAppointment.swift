import IOInterface
import Sessions
import Tracing
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// Books a slot for the calling patient.
///
/// Order matters for "nothing half-done": every check that needs another vertical
/// (identity, clinics) runs *before* anything is stored; then one transaction stores the
/// booking and its notification, and the booking answers as soon as that one commit is durable
/// (its ``Booking/notification`` is `queued`). The outbox delivers the notification after, off
/// the request's path, retrying until notifications acknowledges it; `get` says `sent` then.
package struct BookAppointment {
    let world: World

    /// Creates the use case.
    package init(world: World) {
        self.world = world
    }

    /// Books, or returns the booking a previous attempt with the same requestID made.
    package func execute(_ input: Appointments.BookInput) async throws -> Booking {
        try validate(input)
        let patient = try await world.sessionCheck.principal(token: input.token)
        // Validated: the duration is minutes of Booking.durations and startsAt a year of 1...9999.
        let (endsAt, overflow) = input.startsAt.addingReportingOverflow(.seconds(input.durationMinutes * 60))
        guard !overflow, endsAt.isInWireRange else {
            throw BookingError.invalid(field: "durationMinutes", reason: "ends after the year 9999")
        }
        let slot = try await world.caller.call(
            Clinics.checkSlot,
            .init(clinicID: input.clinicID, service: input.service, startsAt: input.startsAt, endsAt: endsAt))
        guard slot.offersService else {
            throw BookingError.clinicRefuses(
                field: "service", reason: "\(slot.clinicName) does not offer \(input.service)")
        }
        guard slot.isOpen else {
            throw BookingError.clinicRefuses(
                field: "startsAt", reason: slot.reason.isEmpty ? "\(slot.clinicName) is closed then" : slot.reason)
        }
        let now = world.now()
        let booking = Booking(
            id: world.newID(), patientID: patient.userID, clinicID: input.clinicID, clinicName: slot.clinicName,
            service: input.service, startsAt: input.startsAt, endsAt: endsAt, reason: input.reason, status: .booked,
            createdAt: now, requestID: input.requestID, notified: false)
        let message = OutboxMessage(
            appointmentID: booking.id, userID: patient.userID, title: "Appointment booked",
            body: "\(input.service) at \(slot.clinicName) on \(input.startsAt). Reference \(booking.id).",
            deduplicationKey: "appointments.booked:\(booking.id)", now: now)
        // The commit as a span of its own (a child of the request's, kept when the trace is sampled):
        // in a waterfall it tells the store's time from the calls' time.
        let outcome = try await withSpan("appointments.commit", ofKind: .internal) { span in
            span.attributes["db.system"] = "sqlite"
            return try await world.store.insert(booking, outbox: message, capacity: world.settings.slotCapacity)
        }
        switch outcome {
        case .replayed(let previous):
            return previous
        case .inserted(let stored):
            world.outbox.deliverLater(message)
            return stored
        }
    }

    /// The most UTF-8 bytes of `reason` and `requestID`: the contract's bound (its default).
    package static let maxTextBytes = 4096

    private func validate(_ input: Appointments.BookInput) throws {
        guard !input.clinicID.isEmpty else { throw BookingError.invalid(field: "clinicID", reason: "is required") }
        guard input.service.isKnown else {
            throw BookingError.invalid(
                field: "service", reason: "\"\(input.service)\" is not a service this suite knows")
        }
        guard Booking.durations.contains(input.durationMinutes) else {
            let range = Booking.durations
            throw BookingError.invalid(
                field: "durationMinutes", reason: "must be \(range.lowerBound)...\(range.upperBound) minutes")
        }
        guard input.startsAt > world.now() else {
            throw BookingError.invalid(field: "startsAt", reason: "must be in the future")
        }
        guard input.startsAt.isInWireRange else {
            throw BookingError.invalid(field: "startsAt", reason: "must be in the years 1 to 9999")
        }
        // Bytes before characters: one character may carry any number of combining marks.
        guard input.reason.utf8.count <= Self.maxTextBytes, input.reason.count <= 1_000 else {
            throw BookingError.invalid(
                field: "reason", reason: "must be at most 1,000 characters and \(Self.maxTextBytes) bytes")
        }
        guard input.requestID.utf8.count <= Self.maxTextBytes, !input.requestID.isEmpty, input.requestID.count <= 200
        else {
            throw BookingError.invalid(field: "requestID", reason: "must be 1...200 characters, unique per booking")
        }
    }
}
