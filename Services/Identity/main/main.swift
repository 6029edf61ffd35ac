// svc-identity: users, password hashes (Argon2id) and sessions.
import Glibc
import IOInterface
import IdentityService
import VerticalsContract
import VerticalsServiceKit

// A compute process of its own (World.live starts them): Argon2id, away from the daemon's loops.
if let status = ComputeProcesses.serve(CommandLine.arguments.dropFirst(), PasswordJob.answer) { exit(status) }

let status = DaemonMain.run(Identity.self, settings: Settings.declaration, calls: World.calls) { runtime in
    let world = try World.live(runtime: runtime)
    return ServedVertical(Endpoint.routes(world: world), store: world.database)
}
exit(status)
