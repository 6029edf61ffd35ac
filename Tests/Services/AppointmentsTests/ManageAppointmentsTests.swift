import IOInterface
import Testing
import VerticalsContract
import VerticalsServiceKit
import VerticalsTesting
@testable import AppointmentsService

@Suite struct ManageAppointmentsTests {
    @Test func get_anotherPatientsBooking_isPermissionDenied() async throws {
        let world = try World.test(caller: .suite())
        let booking = try await BookAppointment(world: world).execute(.fixture(token: "token-ada"))
        await #expect(throws: BookingError.notOwner) {
            try await GetAppointment(world: world).execute(token: "token-bob", id: booking.id)
        }
        await #expect(throws: BookingError.notOwner) {
            try await CancelAppointment(world: world).execute(token: "token-bob", id: booking.id)
        }
        await world.outbox.flushed() // its notification is delivered after `book` answered
        var delivered = booking
        delivered.notified = true
        #expect(try await GetAppointment(world: world).execute(token: "token-ada", id: booking.id) == delivered)
    }

    @Test func cancel_ownBooking_freesTheSlotAndNotifies() async throws {
        let notifications = NotificationsFake()
        let world = try World.test(caller: .suite(notifications: notifications))
        let booking = try await BookAppointment(world: world).execute(.fixture(token: "token-ada", requestID: "r1"))
        let cancelled = try await CancelAppointment(world: world).execute(token: "token-ada", id: booking.id)
        #expect(cancelled.status == .cancelled)
        #expect(notifications.keys.contains("appointments.cancelled:\(booking.id)"))
        // Capacity is 1: the slot is free again for someone else.
        let other = try await BookAppointment(world: world).execute(.fixture(token: "token-bob", requestID: "r2"))
        #expect(other.status == .booked)
        await #expect(throws: BookingError.alreadyCancelled) {
            try await CancelAppointment(world: world).execute(token: "token-ada", id: booking.id)
        }
    }

    @Test func list_showsOnlyTheCallersBookingsInTheWindowEarliestFirst() async throws {
        let world = try World.test(caller: .suite())
        let late = try await BookAppointment(world: world).execute(
            .fixture(token: "token-ada", startsAt: testNow.adding(.seconds(7_200)), requestID: "late"))
        let early = try await BookAppointment(world: world).execute(
            .fixture(
                token: "token-ada", service: .dentist, startsAt: testNow.adding(.seconds(3_600)), requestID: "early"))
        _ = try await BookAppointment(world: world).execute(
            .fixture(token: "token-bob", service: .optician, requestID: "bob"))
        let listed = try await ListAppointments(world: world).execute(
            .init(token: "token-ada", from: testNow, to: testNow.adding(.seconds(86_400))))
        #expect(listed.bookings.map(\.id) == [early.id, late.id])
    }

    @Test func endpoint_mapsDomainErrorsToTypedWireErrors() async throws {
        #expect(BookingError.notFound("a_1").serviceError.code == .notFound)
        #expect(BookingError.notOwner.serviceError.code == .permissionDenied)
        #expect(BookingError.patientBusy(existingID: "a_1").serviceError.detail("conflictsWith") == "a_1")
        #expect(BookingError.invalid(field: "reason", reason: "too long").serviceError.detail("field") == "reason")
    }
}
