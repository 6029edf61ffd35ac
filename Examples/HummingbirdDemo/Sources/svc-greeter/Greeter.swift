import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// The demonstration's vertical: one operation, written in Swift rather than in a contract file.
enum Greeter {
    /// The vertical's name: its socket is `greeter.sock` in the socket folder.
    static let name = "greeter"
    /// What `--help` says it is.
    static let summary = "A vertical that also answers GET /healthz over HTTP, in one ServiceGroup."

    /// `greeter.hello`: answers at once; something to call while the HTTP server runs beside it.
    static let hello = Operation<Empty, Empty>(name, "hello", summary: "Answer at once.")

    /// The vertical's router.
    static func routes() -> Router {
        var router = Router(service: name)
        router.on(hello) { _, _ in Empty() }
        return router
    }
}
