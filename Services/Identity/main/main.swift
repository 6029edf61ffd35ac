// svc-identity: users, password hashes (Argon2id) and sessions.
import Glibc
import IOInterface
import IdentityService
import ServiceKit

let runtime = ServiceRuntime.boot(Identity.self)
let world: World
do { world = try World.live(runtime: runtime) } catch { StandardError.write("identity: \(error)\n"); exit(70) }
await runtime.serve(Endpoint.routes(world: world), store: world.database)
