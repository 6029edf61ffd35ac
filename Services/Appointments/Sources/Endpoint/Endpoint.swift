import IOInterface
import VerticalsContract
import VerticalsServiceKit

/// Maps appointments' contract onto its use cases.
package enum Endpoint {
    /// Every operation of ``Appointments``, served by `world`.
    package static func routes(world: World) -> Router {
        var router = Router(service: Appointments.self)
        router.on(Appointments.book) { input, _ in
            try await BookAppointment(world: world).execute(input).appointment
        }
        router.on(Appointments.get) { input, _ in
            try await GetAppointment(world: world).execute(token: input.token, id: input.id).appointment
        }
        router.on(Appointments.cancel) { input, _ in
            try await CancelAppointment(world: world).execute(token: input.token, id: input.id).appointment
        }
        router.on(Appointments.list) { input, _ in
            let page = try await ListAppointments(world: world).execute(input)
            return Appointments.AppointmentList(
                appointments: page.bookings.map(\.appointment), nextCursor: page.nextCursor)
        }
        return router
    }
}
