import IOInterface
import Sessions
import VerticalsContract
import VerticalsServiceKit
import VerticalsStorage
import VerticalsWire

/// Reads one of the caller's bookings.
package struct GetAppointment {
    let world: World

    /// Creates the use case.
    package init(world: World) { self.world = world }

    /// The booking, if it is the caller's.
    package func execute(token: String, id: String) async throws -> Booking {
        let patient = try await world.sessionCheck.principal(token: token)
        guard let booking = try await world.store.booking(id: id) else { throw BookingError.notFound(id) }
        guard booking.patientID == patient.userID else { throw BookingError.notOwner }
        return booking
    }
}

/// Cancels one of the caller's bookings and tells them so.
package struct CancelAppointment {
    let world: World

    /// Creates the use case.
    package init(world: World) { self.world = world }

    /// The cancelled booking.
    package func execute(token: String, id: String) async throws -> Booking {
        let booking = try await GetAppointment(world: world).execute(token: token, id: id)
        guard booking.status == .booked else { throw BookingError.alreadyCancelled }
        let message = OutboxMessage(
            appointmentID: booking.id, userID: booking.patientID, title: "Appointment cancelled",
            body: "Your \(booking.service) appointment at \(booking.clinicName) on \(booking.startsAt) is cancelled.",
            deduplicationKey: "appointments.cancelled:\(booking.id)", now: world.now())
        let cancelled = try await world.store.cancel(id: id, outbox: message)
        _ = await world.outbox.deliver(message)
        return cancelled
    }
}

/// Lists the caller's bookings in a window, a page at a time.
package struct ListAppointments {
    let world: World

    /// The largest page size `list` accepts.
    package static let maxLimit = 200

    /// Creates the use case.
    package init(world: World) { self.world = world }

    /// One page of the bookings starting in `from..<to`, earliest first: up to `limit` after
    /// `cursor`, and the next page's cursor when more follow. A cursor made for another window
    /// or filter is refused (`invalid(field: "cursor")`).
    package func execute(_ input: Appointments.ListInput) async throws -> (bookings: [Booking], nextCursor: String?) {
        guard input.from < input.to else { throw BookingError.invalid(field: "to", reason: "must be after from") }
        guard (1...Self.maxLimit).contains(input.limit) else {
            throw BookingError.invalid(field: "limit", reason: "must be 1...\(Self.maxLimit) (got \(input.limit))")
        }
        let patient = try await world.sessionCheck.principal(token: input.token)
        let scope = [
            "appointments.list", patient.userID, "\(input.from.microsecondsSinceEpoch)",
            "\(input.to.microsecondsSinceEpoch)", "\(input.includeCancelled)",
        ].joined(separator: "|")
        let after = try PageCursor.decode(input.cursor, scope: scope, keyCount: 2) {
            BookingError.invalid(field: "cursor", reason: $0)
        }
        let rows = try await world.store.bookings(
            patientID: patient.userID, from: input.from, to: input.to, includeCancelled: input.includeCancelled,
            after: after, limit: input.limit + 1)
        let page = PageCursor.page(rows, limit: input.limit, scope: scope) { booking in
            [.integer(booking.startsAt.microsecondsSinceEpoch), .text(booking.id)]
        }
        return (page.items, page.nextCursor)
    }
}
