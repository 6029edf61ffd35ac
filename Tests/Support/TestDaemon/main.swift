// vt-testd: a test-only vertical built on ServiceKit, used by the process tests.
// Usage: vt-testd [NAME]   (serves the TestEcho contract as vertical NAME, default "echo")
import Glibc
import IOInterface
import ServiceKit
import TestSupport

let name = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "echo"
let contract = TestEcho(service: name)
let runtime = ServiceRuntime.boot(name: name)
let client = runtime.client

var router = Router(service: name)
router.on(contract.echo) { input, _ in
    if input.delayMilliseconds > 0 { try await Task.sleep(for: .milliseconds(input.delayMilliseconds)) }
    return .init(text: input.text, servedBy: Int(getpid()))
}
router.on(contract.fail) { input, _ in
    throw ServiceError(input.code, input.message)
}
router.on(contract.throwUntyped) { _, _ in
    struct Untyped: Error {}
    throw Untyped()
}
router.on(contract.relay) { input, context in
    let remaining = context.deadline.map { Int($0.remaining.components.seconds * 1_000_000 + $0.remaining.components.attoseconds / 1_000_000_000_000) } ?? 0
    let echoed = try await client.call(
        TestEcho(service: input.target).echo, .init(text: input.text, delayMilliseconds: input.delayMilliseconds))
    return .init(echoed: echoed, remainingMicroseconds: remaining)
}

await runtime.serve(router)
