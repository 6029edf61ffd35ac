import Synchronization
import Tracing

/// Bootstraps swift-distributed-tracing's `InstrumentationSystem` once per process with a
/// ``VerticalsTracer`` whose spans outside any request go to the daemon's recorder.
public enum TracingBootstrap {
    private static let done = Mutex(false)

    /// Bootstraps the tracer; later calls (tests running several hosts) do nothing.
    public static func bootstrap(recorder: TraceRecorder?) {
        done.withLock { done in
            guard !done else { return }
            done = true
            InstrumentationSystem.bootstrap(VerticalsTracer(recorder: recorder))
        }
    }
}
