// vt-testd: a test-only vertical built on ServiceKit, used by the process tests.
// Usage: vt-testd [NAME]   (serves the TestEcho contract as vertical NAME, default $VT_TESTD_NAME or "echo",
// and NAME.wedge, which deadlocks the daemon for the liveness tests)
//
// With VT_TESTD_MIGRATIONS=N it also opens a store of its own as a vertical does (WorldParts.live:
// the store's lock, an upgrade's hand-over), migrated by N migrations `v1` … `vN`: a "new build"
// is the same program with a larger N. VT_TESTD_FAIL_AFTER_STORE=1 then ends it (exit 70) once
// the store is open and migrated, before it serves: an upgrade that fails after its hand-over.
// VT_TESTD_HOSTILE_FILES makes it attack the root supervisor's file handling (HostileFiles.swift).
// VT_TESTD_UNMARKED_SECRET=1 also serves NAME.signIn, marked as the suite's login but with a password
// field not marked secret (TestEcho.unmarkedSignIn), which the CLI must refuse to fill or send.
// VT_TESTD_CONTRACT=2|breaking serves and calls another version of echo (ContractVersion.swift).
import GRDB
import Glibc
import Synchronization
import VerticalsClient
import VerticalsTestSupport
import VerticalsContract
import VerticalsServiceKit
import VerticalsStorage
import VerticalsWire

// A compute process of its own (ComputeProcessesTests start it so): TestCompute answers.
if let status = ComputeProcesses.serve(CommandLine.arguments.dropFirst(), TestCompute.answer) { exit(status) }

let named = CommandLine.arguments.count > 1 && !CommandLine.arguments[1].hasPrefix("-")
// VT_TESTD_NAME names it where no argument can: a build's `--describe` is run without the
// manifest's arguments (a script that sets it stands for another build of one vertical).
let name = named ? CommandLine.arguments[1] : ProcessEnvironment.current["VT_TESTD_NAME"] ?? "echo"
if HostileFiles.actOnce(name: name) { exit(0) }
// `--describe` says it serves TestEcho as NAME and calls beta.echo: the callee the suites of the
// can-i-deploy and mixed-version tests name `beta` (its relay calls whoever it is told, which no
// build can declare); the client checks beta's contract at connect.
let version = ContractVersion.from(ProcessEnvironment.current)
let calls: Callees =
    switch version {
    case .v1: Callees(TestEcho(service: "beta").echo)
    case .v2: Callees(ContractVersion.echoV2("beta"))
    case .breaking: Callees(ContractVersion.echoBreaking("beta"))
    }
let describe = {
    var operations = TestEcho(service: name).operations
    operations[0] = version.echo(name)
    return BuildDescription.of(name: name, summary: "", operations: operations, calls: calls)
}
let status = DaemonMain.run(
    name: name, summary: "", arguments: Array(CommandLine.arguments.dropFirst(named ? 2 : 1)), describe: describe,
    calls: calls
) { runtime in
    guard let count = runtime.environment["VT_TESTD_MIGRATIONS"].flatMap(Int.init), count > 0 else {
        var router = routes(name: name, client: runtime.client, version: version)
        HostileFiles.add(to: &router, stateDirectory: runtime.stateDirectory)
        if runtime.environment["VT_TESTD_UNMARKED_SECRET"] == "1" {
            router.on(TestEcho(service: name).unmarkedSignIn) { _, _ in .init(token: "token-for-anyone") }
        }
        return ServedVertical(router)
    }
    var migrator = DatabaseMigrator()
    for migration in 1...count {
        migrator.registerMigration("v\(migration)") { db in
            try db.execute(sql: "CREATE TABLE v\(migration) (id INTEGER PRIMARY KEY)")
        }
    }
    let parts = try WorldParts.live(runtime: runtime, migrator: migrator, newID: RandomID.uuidString, calls: .none)
    HostileFiles.afterStore(environment: runtime.environment)
    if runtime.environment["VT_TESTD_FAIL_AFTER_STORE"] == "1" {
        throw ServiceError(.internal, "VT_TESTD_FAIL_AFTER_STORE: failing after the store was opened, as asked")
    }
    return ServedVertical(routes(name: name, client: runtime.client, version: version), store: parts.database)
}
exit(status)

/// TestEcho's operations, served as vertical `name` (with `name.wedge`), echo as of `version`;
/// `relay` calls other verticals with `client`.
func routes(name: String, client: ServiceClient, version: ContractVersion) -> Router {
    let contract = TestEcho(service: name)
    var router = Router(service: name)
    switch version {
    case .v1:
        router.on(contract.echo) { input, _ in
            if input.delayMilliseconds > 0 { try await Task.sleep(for: .milliseconds(input.delayMilliseconds)) }
            return .init(text: input.text, servedBy: Int(getpid()))
        }
    case .v2:
        router.on(ContractVersion.echoV2(name)) { input, _ in
            if input.delayMilliseconds > 0 { try await Task.sleep(for: .milliseconds(input.delayMilliseconds)) }
            return .init(text: input.text, servedBy: Int(getpid()), note: input.note)
        }
    case .breaking:
        router.on(ContractVersion.echoBreaking(name)) { input, _ in .init(text: input.text, servedBy: Int(getpid())) }
    }
    router.on(contract.fail) { input, _ in
        throw ServiceError(input.code, input.message)
    }
    router.on(contract.throwUntyped) { _, _ in
        struct Untyped: Error {}
        throw Untyped()
    }
    router.on(contract.relay) { input, context in
        let remaining =
            context.deadline.map {
                Int(
                    $0.remaining.components.seconds * 1_000_000 + $0.remaining.components.attoseconds
                        / 1_000_000_000_000)
            } ?? 0
        let echoed: TestEcho.EchoOutput
        switch version {
        case .v1:
            echoed = try await client.call(
                TestEcho(service: input.target).echo,
                .init(text: input.text, delayMilliseconds: input.delayMilliseconds))
        case .v2:
            let answer = try await client.call(
                ContractVersion.echoV2(input.target),
                .init(text: input.text, delayMilliseconds: input.delayMilliseconds, note: "from version 2"))
            echoed = .init(text: answer.text, servedBy: answer.servedBy)
        case .breaking:
            let answer = try await client.call(
                ContractVersion.echoBreaking(input.target), .init(text: input.text, volume: 1))
            echoed = answer
        }
        return .init(echoed: echoed, remainingMicroseconds: remaining)
    }
    router.onStream(contract.count) { input, _ in
        CountEvents(input: input)
    }
    router.on(contract.produced) { _, _ in
        .init(events: CountEvents.produced.load(ordering: .relaxed))
    }
    // `<name>.wedge`: the handler deadlocks the loop thread on a mutex it already holds, so the
    // process lives on but answers nothing again, not even a ping. For the liveness tests.
    router.on(Operation<Empty, Empty>(name, "wedge", summary: "Deadlock the loop thread.")) { _, _ in
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_NORMAL))
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(mutex, &attributes)
        pthread_mutex_lock(mutex)
        pthread_mutex_lock(mutex)
        return Empty()
    }
    return router
}

/// The events of one `count` stream, made one at a time as the stream asks for them.
struct CountEvents: AsyncSequence, Sendable {
    /// Events made by every stream so far (`produced`), so a test can see backpressure hold one.
    static let produced = Atomic<Int>(0)
    let input: TestEcho.CountInput

    struct AsyncIterator: AsyncIteratorProtocol {
        let input: TestEcho.CountInput
        var index = 0

        mutating func next() async throws -> TestEcho.CountEvent? {
            if input.delayMilliseconds > 0 { try await Task.sleep(for: .milliseconds(input.delayMilliseconds)) }
            guard input.count == 0 || index < input.count else {
                if let code = input.failWith { throw ServiceError(code, "ended with \(code) as asked") }
                return nil
            }
            index += 1
            CountEvents.produced.add(1, ordering: .relaxed)
            return .init(index: index, padding: String(repeating: "x", count: input.bytes))
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(input: input) }
}
