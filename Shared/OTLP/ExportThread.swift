import Glibc

/// The OTLP sender's thread: started when a span arrives at an empty exporter, ended when its
/// queue is empty again, so an idle daemon keeps no thread for export, parked or awake. Named
/// `otlp-export` in `/proc` (what `top -H` and `ps -L` show).
enum ExportThread {
    /// Runs `job` on a new detached thread; false when no thread could be started.
    static func start(_ job: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Job(job)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { argument in
                let job = Unmanaged<Job>.fromOpaque(argument!).takeRetainedValue()
                let comm = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
                if comm >= 0 { _ = write(comm, "otlp-export", 11); close(comm) }
                job.run()
                return nil
            }, box)
        guard status == 0 else {
            Unmanaged<Job>.fromOpaque(box).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    /// The closure a new thread is handed.
    private final class Job: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
