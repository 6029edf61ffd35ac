// svc-records: each patient's clinical history, with clinic names and nearby pharmacies from clinics.
import Glibc
import IOInterface
import RecordsService
import VerticalsContract
import VerticalsServiceKit

let status = DaemonMain.run(Records.self, settings: World.Settings.declaration, calls: World.calls) { runtime in
    let world = try World.live(runtime: runtime)
    return ServedVertical(Endpoint.routes(world: world), store: world.database)
}
exit(status)
