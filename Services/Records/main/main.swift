// svc-records: each patient's clinical history, with clinic names and nearby pharmacies from clinics.
import Glibc
import IOInterface
import RecordsService
import ServiceKit

let runtime = ServiceRuntime.boot(Records.self)
let world: World
do { world = try World.live(runtime: runtime) } catch { StandardError.write("records: \(error)\n"); exit(70) }
await runtime.serve(Endpoint.routes(world: world), store: world.database)
