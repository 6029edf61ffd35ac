// svc-clinics: the clinic network — where clinics are, what they offer, when they open.
import ClinicsService
import Glibc
import IOInterface
import VerticalsContract
import VerticalsServiceKit

let status = DaemonMain.run(Clinics.self, settings: World.Settings.declaration, calls: World.calls) { runtime in
    let world = try World.live(runtime: runtime)
    return ServedVertical(Endpoint.routes(world: world), store: world.database)
}
exit(status)
