#if canImport(Glibc)
import Glibc
#endif
import Logging
import Synchronization
import VerticalsEventLoop

/// Runs a daemon's parts (``DaemonPart``) on its event loop, in the shape of
/// swift-service-lifecycle's `ServiceGroup`: started in order, shut down gracefully in reverse
/// order when the process receives SIGTERM or SIGINT (watched once, here, on the loop), when
/// ``triggerGracefulShutdown(reason:)`` is called, or when any part ends on its own.
///
/// ```swift
/// let lifecycle = DaemonLifecycle(
///     parts: [AtShutdown { client.close() }, AtShutdown { await work.stop() }, HostPart(host)],
///     loop: loop, logger: logger)
/// try await lifecycle.run()   // the host drains first, then background work ends, then the client closes
/// ```
///
/// Unlike swift-service-lifecycle's group, it never touches libdispatch: each part's task
/// prefers the loop as its executor and signals are libuv signal handles, so an idle daemon
/// sleeps (libdispatch's global queues would start a worker-pool monitor that wakes it every
/// second). Inside that library's `ServiceGroup`, a lifecycle watches no signal (`signals: []`)
/// and the group's graceful shutdown triggers it (`VerticalsServiceLifecycle`'s `VerticalService`).
///
/// Shutting a part down is cancelling its task and awaiting it; the next one (in reverse
/// start order) is cancelled only once it has returned, so a host has drained before the
/// background work it may have started is cancelled, and both before the client closes.
public final class DaemonLifecycle: Sendable {
    private let parts: [any DaemonPart]
    private let loop: EventLoop
    private let signals: [Int32]
    private let logger: Logger
    private let events: AsyncStream<Event>
    private let post: AsyncStream<Event>.Continuation

    private enum Event: Sendable {
        case shutdown(reason: String)
        case ended(index: Int, error: (any Error)?)
    }

    /// The lifecycle of `parts` (started in this order, stopped in the reverse), on `loop`,
    /// shutting down on each of `signals` (none: only ``triggerGracefulShutdown(reason:)`` and
    /// the parts' own ends stop it).
    public init(parts: [any DaemonPart], loop: EventLoop, signals: [Int32] = [SIGTERM, SIGINT], logger: Logger) {
        self.parts = parts
        self.loop = loop
        self.signals = signals
        self.logger = logger
        (events, post) = AsyncStream.makeStream(of: Event.self)
    }

    /// Begins the graceful shutdown a signal would; thread-safe, and later calls do nothing more.
    public func triggerGracefulShutdown(reason: String = "asked to stop") {
        post.yield(.shutdown(reason: reason))
    }

    /// Runs every part until shutdown, then stops them in reverse order and returns once
    /// each has returned. Call it once.
    ///
    /// - Throws: the first error a part threw (by start order when several did at shutdown);
    ///   a part that throws first also starts the shutdown of the others.
    public func run() async throws {
        // The lifecycle's own bookkeeping runs on the loop too, whoever calls it (an async `main`
        // calls from the global executor).
        try await withTaskExecutorPreference(loop) {
            let watchers = try await watchSignals()
            let tasks = parts.map { part in
                Task(executorPreference: loop) { try await part.run() }
            }
            for (index, task) in tasks.enumerated() {
                let post = self.post
                Task(executorPreference: loop) {
                    let result = await task.result
                    if case .failure(let error) = result {
                        post.yield(.ended(index: index, error: error))
                    } else {
                        post.yield(.ended(index: index, error: nil))
                    }
                }
            }
            var running = Set(tasks.indices)
            var failures: [Int: any Error] = [:]
            // The first event ends the run: a signal, a trigger, or a part that ended by itself.
            var iterator = events.makeAsyncIterator()
            switch await iterator.next() {
            case .shutdown(let reason):
                logger.info("\(reason): draining")
            case .ended(let index, let error):
                running.remove(index)
                if let error {
                    failures[index] = error
                    logger.debug("part \(index) failed (\(error)): stopping the others")
                } else {
                    logger.debug("part \(index) ended: stopping the others")
                }
            case nil:
                logger.debug("the lifecycle's task was cancelled: draining")
            }
            for index in tasks.indices.reversed() where running.contains(index) {
                tasks[index].cancel()
                if case .failure(let error) = await tasks[index].result, !(error is CancellationError) {
                    failures[index] = error
                }
            }
            post.finish()
            try? await loop.submit { for watcher in watchers { watcher.close() } }
            if let first = failures.keys.min(), let error = failures[first] { throw error }
        }
    }

    /// Starts watching the lifecycle's signals on the loop; each posts a shutdown.
    private func watchSignals() async throws -> [SignalWatcher] {
        let post = self.post
        let signals = self.signals
        let loop = self.loop
        return try await loop.submit {
            try signals.map { signal in
                try SignalWatcher(loop: loop, signal: signal) { received in
                    post.yield(.shutdown(reason: "received signal \(received)"))
                }
            }
        }
    }
}
