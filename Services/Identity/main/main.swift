// svc-identity: users, password hashes (Argon2id) and sessions.
import Glibc
import IOInterface
import IdentityService
import VerticalsContract
import VerticalsServiceKit

let status = DaemonMain.run(Identity.self, settings: Settings.declaration, calls: World.calls) { runtime in
    let world = try World.live(runtime: runtime)
    return ServedVertical(Endpoint.routes(world: world), store: world.database)
}
exit(status)
