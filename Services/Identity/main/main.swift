// svc-identity: users, password hashes (Argon2id) and sessions.
import IOInterface
import IdentityService
import ServiceKit

let runtime = ServiceRuntime.boot(Identity.self)
let world = runtime.makeWorld { try World.live(runtime: runtime) }
await runtime.serve(Endpoint.routes(world: world), store: world.database)
