// vt-lifecycled: a test vertical and a plain swift-service-lifecycle service in one ServiceGroup,
// for the process test of their shared graceful shutdown.
// Usage: vt-lifecycled [NAME]   (serves TestEcho's `echo` as vertical NAME, default "echo")
//
// On standard error, one line per fact the test orders: `vertical: answered TEXT` once `echo`'s
// handler has its answer, `other: running`, `other: graceful shutdown` when the group asks it to
// stop (`other: cancelled` if it was cancelled instead), `other: returned` as its run ends; the
// vertical's own log says when it has drained. VT_LIFECYCLED_BESIDE_FAILS=1 makes the other
// service fail to be made: the daemon exits 70 saying why.
import Glibc
import ServiceLifecycle
import VerticalsTestSupport
import VerticalsServiceKit
import VerticalsServiceLifecycle

/// A service of the ecosystem's shape, nothing of ServiceKit's: waits for the group's graceful
/// shutdown and says so.
struct OtherService: Service {
    func run() async throws {
        say("other: running")
        do {
            try await gracefulShutdown()
            say("other: graceful shutdown")
        } catch {
            say("other: cancelled")
        }
        say("other: returned")
    }
}

/// One line on standard error, written at once (unbuffered).
func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

/// What `beside` throws under `VT_LIFECYCLED_BESIDE_FAILS=1`: a service that cannot be made.
struct BesideFailure: Error, CustomStringConvertible {
    var description: String { "VT_LIFECYCLED_BESIDE_FAILS=1: the other service cannot be made, as asked" }
}

let named = CommandLine.arguments.count > 1 && !CommandLine.arguments[1].hasPrefix("-")
let name = named ? CommandLine.arguments[1] : "echo"
let status = DaemonMain.run(
    name: name, arguments: Array(CommandLine.arguments.dropFirst(named ? 2 : 1)),
    beside: { runtime in
        if runtime.environment["VT_LIFECYCLED_BESIDE_FAILS"] == "1" { throw BesideFailure() }
        return [OtherService()]
    }
) { _ in
    let contract = TestEcho(service: name)
    var router = Router(service: name)
    router.on(contract.echo) { input, _ in
        if input.delayMilliseconds > 0 { try await Task.sleep(for: .milliseconds(input.delayMilliseconds)) }
        say("vertical: answered \(input.text)")
        return .init(text: input.text, servedBy: Int(getpid()))
    }
    return ServedVertical(router)
}
exit(status)
