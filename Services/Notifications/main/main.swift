// svc-notifications: per-user inboxes and delivery state.
import Glibc
import IOInterface
import NotificationsService
import VerticalsContract
import VerticalsServiceKit

let status = DaemonMain.run(Notifications.self, calls: World.calls) { runtime in
    let world = try World.live(runtime: runtime)
    return ServedVertical(Endpoint.routes(world: world), store: world.database)
}
exit(status)
