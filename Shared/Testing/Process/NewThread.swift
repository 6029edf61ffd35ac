import Glibc

/// Runs code on a thread of its own, made for it and ended after: for a test that must do
/// something on another thread than its own (join a namespace, read what a thread keeps to itself).
public enum NewThread {
    /// Runs `body` on a new thread and returns what it returned (or rethrows); the calling
    /// thread waits for it.
    public static func run<T>(_ body: @escaping () throws -> T) throws -> T {
        var outcome: Result<T, any Error>?
        let job = Job { outcome = Result { try body() } }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(job).toOpaque()
        let status = pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue().work()
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<Job>.fromOpaque(context).release()
            throw RawSocketError("pthread_create")
        }
        pthread_join(thread, nil) // `outcome` is written before the thread ends, read after
        return try outcome!.get()
    }

    /// The work of one thread of ``run(_:)``.
    private final class Job {
        let work: () -> Void
        init(_ work: @escaping () -> Void) { self.work = work }
    }
}
