import NIOCore
import NIOPosix

/// NIO's shared group as a task executor: a job runs on the group's event loop it is enqueued
/// from, else on the next one, as it does once NIO has taken over Swift's global executor
/// (`NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()`).
///
/// That takeover finds the runtime's hook by name, which a program linked with the Swift runtime
/// statically does not export; so a tuned end also prefers this executor for the tasks it starts
/// (child tasks inherit the preference): gRPC's tasks then run on the transport's threads either way.
final class SharedGroupExecutor: TaskExecutor {
    static let shared = SharedGroupExecutor()

    private let group = MultiThreadedEventLoopGroup.singleton

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        group.any().execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
