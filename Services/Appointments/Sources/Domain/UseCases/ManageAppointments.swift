import IOInterface
import ServiceKit

/// Reads one of the caller's bookings.
public struct GetAppointment {
    let world: World

    /// Creates the use case.
    public init(world: World) { self.world = world }

    /// The booking, if it is the caller's.
    public func execute(token: String, id: String) async throws -> Booking {
        let patient = try await Authenticate(caller: world.caller).execute(token)
        guard let booking = try await world.store.booking(id: id) else { throw BookingError.notFound(id) }
        guard booking.patientID == patient.userID else { throw BookingError.notOwner }
        return booking
    }
}

/// Cancels one of the caller's bookings and tells them so.
public struct CancelAppointment {
    let world: World

    /// Creates the use case.
    public init(world: World) { self.world = world }

    /// The cancelled booking.
    public func execute(token: String, id: String) async throws -> Booking {
        let booking = try await GetAppointment(world: world).execute(token: token, id: id)
        guard booking.status == .booked else { throw BookingError.alreadyCancelled }
        let message = OutboxMessage(
            appointmentID: booking.id, userID: booking.patientID, title: "Appointment cancelled",
            body: "Your \(booking.service) appointment at \(booking.clinicName) on \(booking.startsAt) is cancelled.",
            deduplicationKey: "appointments.cancelled:\(booking.id)", now: world.now())
        let cancelled = try await world.store.cancel(id: id, outbox: message)
        _ = await world.outbox.deliverNow(appointmentID: booking.id)
        return cancelled
    }
}

/// Lists the caller's bookings in a window.
public struct ListAppointments {
    let world: World

    /// Creates the use case.
    public init(world: World) { self.world = world }

    /// The bookings starting in `from..<to`, earliest first.
    public func execute(_ input: Appointments.ListInput) async throws -> [Booking] {
        guard input.from < input.to else { throw BookingError.invalid(field: "to", reason: "must be after from") }
        let patient = try await Authenticate(caller: world.caller).execute(input.token)
        return try await world.store.bookings(
            patientID: patient.userID, from: input.from, to: input.to, includeCancelled: input.includeCancelled)
    }
}
