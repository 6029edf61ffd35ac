// svc-records: each patient's clinical history, with clinic names and nearby pharmacies from clinics.
import IOInterface
import RecordsService
import ServiceKit

let runtime = ServiceRuntime.boot(Records.self)
let world = runtime.makeWorld { try World.live(runtime: runtime) }
await runtime.serve(Endpoint.routes(world: world), store: world.database)
