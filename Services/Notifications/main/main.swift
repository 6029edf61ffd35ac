// svc-notifications: per-user inboxes and delivery state.
import Glibc
import IOInterface
import NotificationsService
import ServiceKit

let runtime = ServiceRuntime.boot(Notifications.self)
let world: World
do { world = try World.live(runtime: runtime) } catch { StandardError.write("notifications: \(error)\n"); exit(70) }
await runtime.serve(Endpoint.routes(world: world), store: world.database)
