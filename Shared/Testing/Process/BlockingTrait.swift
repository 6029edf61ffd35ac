import Testing
import VerticalsEventLoop

/// Gives each test case of a suite a thread of its own, for tests that block the thread they run
/// on: a ``DaemonProcess`` waited for, ``runCommand(_:_:environment:in:standardInput:timeout:sourceLocation:)``,
/// a polling ``eventually(timeout:sourceLocation:_:)``.
///
/// Swift Testing runs every test on Swift's shared cooperative pool, one thread a core. A test
/// that blocks holds one of those threads for as long as it waits, and every other test's next
/// step queues behind it: on a two-core machine a few such tests stall hundreds of others for
/// minutes, and their time limits fire at random. Under this trait a test case runs on its own
/// event loop's thread (the loop is its task executor; its child tasks prefer it too), so its
/// waits stall nobody else:
///
/// ```swift
/// @Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
/// struct LedgerProcessTests { … }
/// ```
///
/// The blocking helpers of this module record an issue when a test without the trait calls
/// them, so a new blocking test cannot quietly slow the rest of the run.
///
/// A test that blocks while it waits for one of its own child tasks would wait for ever (the
/// child runs on the same thread): give the blocking call to `Offload.run` instead.
public struct BlockingTrait: SuiteTrait, TestTrait, TestScoping {
    /// Whether the current task runs under this trait.
    @TaskLocal static var isActive = false

    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A suite's own scope, and a test case already under the trait (from an enclosing suite
        // too), pass through: only a test case gets a loop, and only one.
        guard testCase != nil, !Self.isActive else { return try await function() }
        let loop = try EventLoop(name: "blocking-test")
        var failure: (any Error)?
        do {
            try await Self.$isActive.withValue(true) {
                try await withTaskExecutorPreference(loop) { try await function() }
            }
        } catch {
            failure = error
        }
        // Off the loop's own thread, so that shutdown joins it (on it, shutdown only asks).
        await Task.detached { loop.shutdown() }.value
        if let failure { throw failure }
    }
}

extension Trait where Self == BlockingTrait {
    /// Each test case runs on a thread of its own: see ``BlockingTrait``.
    public static var blocking: Self { BlockingTrait() }
}

/// Records an issue when the running test blocks a shared thread: it calls `helper`, which
/// blocks, without ``BlockingTrait``. Outside a test (a benchmark, a thread of the test's own)
/// there is nothing to check.
func requireOwnThread(_ helper: String, sourceLocation: SourceLocation) {
    guard let test = Test.current, !BlockingTrait.isActive else { return }
    Issue.record(
        "\(helper) blocks its thread, and \(test.name) runs on the shared pool: mark its suite .blocking",
        sourceLocation: sourceLocation)
}
