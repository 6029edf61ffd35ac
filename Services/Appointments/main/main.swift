// svc-appointments: patients' bookings. Build the World, serve the Endpoint.
import AppointmentsService
import Glibc
import IOInterface
import VerticalsContract
import VerticalsServiceKit

let status = DaemonMain.run(Appointments.self, settings: World.Settings.declaration, calls: World.calls) { runtime in
    let world = try World.live(runtime: runtime)
    if !runtime.checkOnly { world.outbox.resume() } // --check sends nothing
    return ServedVertical(Endpoint.routes(world: world), store: world.store.database)
}
exit(status)
