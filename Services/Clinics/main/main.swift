// svc-clinics: the clinic network — where clinics are, what they offer, when they open.
import ClinicsService
import IOInterface
import ServiceKit

let runtime = ServiceRuntime.boot(Clinics.self)
let world = runtime.makeWorld { try World.live(runtime: runtime) }
await runtime.serve(Endpoint.routes(world: world), store: world.database)
