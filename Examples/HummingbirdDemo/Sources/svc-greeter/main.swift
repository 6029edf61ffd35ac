// svc-greeter: the vertical `greeter` (one operation, `greeter.hello`, besides every daemon's
// `daemon.*`) and, in the same ServiceGroup, an HTTP server that answers `GET /healthz` with the
// vertical's own `daemon.health`. SIGTERM or SIGINT: the vertical drains first, then the HTTP
// server shuts down gracefully, then the process exits 0.
import Glibc
import VerticalsServiceKit
import VerticalsServiceLifecycle

let status = DaemonMain.run(
    name: Greeter.name, summary: Greeter.summary,
    beside: { runtime in [try HealthEndpoint.application(runtime: runtime)] }
) { _ in
    ServedVertical(Greeter.routes())
}
exit(status)
