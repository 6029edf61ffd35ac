import IOInterface
import ServiceKit

/// Maps appointments' contract onto its use cases.
public enum Endpoint {
    /// Every operation of ``Appointments``, served by `world`.
    public static func routes(world: World) -> Router {
        var router = Router(service: Appointments.self)
        router.on(Appointments.book) { input, _ in
            try await mapErrors { try await BookAppointment(world: world).execute(input).appointment }
        }
        router.on(Appointments.get) { input, _ in
            try await mapErrors { try await GetAppointment(world: world).execute(token: input.token, id: input.id).appointment }
        }
        router.on(Appointments.cancel) { input, _ in
            try await mapErrors {
                try await CancelAppointment(world: world).execute(token: input.token, id: input.id).appointment
            }
        }
        router.on(Appointments.list) { input, _ in
            try await mapErrors {
                let page = try await ListAppointments(world: world).execute(input)
                return Appointments.AppointmentList(
                    appointments: page.bookings.map(\.appointment), nextCursor: page.nextCursor)
            }
        }
        return router
    }

    /// Domain errors become their typed wire errors; errors of other verticals pass through.
    static func mapErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as BookingError {
            throw error.serviceError
        }
    }
}
