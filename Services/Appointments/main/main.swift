// svc-appointments: patients' bookings. Build the World, serve the Endpoint.
import AppointmentsService
import IOInterface
import ServiceKit

let runtime = ServiceRuntime.boot(Appointments.self)
let world = runtime.makeWorld { try World.live(runtime: runtime) }
if !runtime.checkOnly { world.outbox.resume() }  // --check sends nothing
await runtime.serve(Endpoint.routes(world: world), store: world.store.database)
