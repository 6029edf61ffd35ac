/// Per-service resource limits, applied by `vt-exec` between fork and exec (`setrlimit`,
/// `setpriority`) and, for `memory`, `cpu`, `cpu_weight` and `tasks`, through a cgroup of the service's own: v2 where
/// a writable subtree has the controller delegated, else v1 (as root), else skipped with a
/// note in the service's log.
///
/// ```toml
/// limits = { open_files = 1024, data = "512MiB", core = 0, cpu_seconds = 3600, nice = 5,
///            memory = "256MiB", cpu = "50%", cpu_weight = 20, tasks = 512 }
/// ```
///
/// `data` (RLIMIT_DATA), not address space: a Swift binary maps far more address space than it
/// uses, and an `RLIMIT_AS` of 64 MiB stops it from loading at all.
public struct ResourceLimits: Sendable, Equatable {
    /// RLIMIT_NOFILE: open file descriptors.
    public var openFiles: Int?
    /// RLIMIT_DATA in bytes: heap and data segments.
    public var dataBytes: Int?
    /// RLIMIT_CORE in bytes; 0 turns core dumps off.
    public var coreBytes: Int?
    /// RLIMIT_CPU: CPU seconds; the kernel sends SIGXCPU at the limit.
    public var cpuSeconds: Int?
    /// Niceness, -20 (first) to 19 (last).
    public var nice: Int?
    /// cgroup memory limit in bytes (memory.max, or v1 memory.limit_in_bytes); past it the
    /// kernel's OOM killer ends the service.
    public var memoryBytes: Int?
    /// cgroup CPU quota in percent of one CPU (cpu.max, or v1 cfs quota); 150 = one and a half.
    public var cpuPercent: Int?
    /// cgroup CPU weight, 1 to 10000 (cpu.weight, or v1 cpu.shares; systemd's `CPUWeight=`):
    /// its share of the processors against the other services while they all want them; 100
    /// is everyone's by default. It takes nothing from a service when the processors are free.
    public var cpuWeight: Int?
    /// cgroup limit on processes and threads together (pids.max, systemd's `TasksMax=`): past it
    /// `fork` and thread creation fail in the service alone, so a fork bomb stays inside it.
    public var tasks: Int?

    /// No limits: the supervisor's own are inherited.
    public init(
        openFiles: Int? = nil, dataBytes: Int? = nil, coreBytes: Int? = nil, cpuSeconds: Int? = nil, nice: Int? = nil,
        memoryBytes: Int? = nil, cpuPercent: Int? = nil, cpuWeight: Int? = nil, tasks: Int? = nil
    ) {
        self.openFiles = openFiles
        self.dataBytes = dataBytes
        self.coreBytes = coreBytes
        self.cpuSeconds = cpuSeconds
        self.nice = nice
        self.memoryBytes = memoryBytes
        self.cpuPercent = cpuPercent
        self.cpuWeight = cpuWeight
        self.tasks = tasks
    }

    /// Whether a cgroup is needed.
    public var needsCgroup: Bool { memoryBytes != nil || cpuPercent != nil || cpuWeight != nil || tasks != nil }
}
