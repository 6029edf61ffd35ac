// svc-notifications: per-user inboxes and delivery state.
import IOInterface
import NotificationsService
import ServiceKit

let runtime = ServiceRuntime.boot(Notifications.self)
let world = runtime.makeWorld { try World.live(runtime: runtime) }
await runtime.serve(Endpoint.routes(world: world), store: world.database)
