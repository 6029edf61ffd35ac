// svc-clinics: the clinic network — where clinics are, what they offer, when they open.
import ClinicsService
import Glibc
import IOInterface
import ServiceKit

let runtime = ServiceRuntime.boot(Clinics.self)
let world: World
do { world = try World.live(runtime: runtime) } catch { StandardError.write("clinics: \(error)\n"); exit(70) }
await runtime.serve(Endpoint.routes(world: world), store: world.database)
