// svc-appointments: patients' bookings. Build the World, serve the Endpoint.
import AppointmentsService
import Glibc
import IOInterface
import ServiceKit

let runtime = ServiceRuntime.boot(Appointments.self)
let world: World
do {
    world = try World.live(runtime: runtime)
} catch {
    StandardError.write("appointments: cannot open its store: \(error)\n")
    exit(70)
}
if !runtime.checkOnly { world.outbox.resume() }  // --check sends nothing
await runtime.serve(Endpoint.routes(world: world), store: world.store.database)
