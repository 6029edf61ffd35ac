import VerticalsContract
/// The bounds of the pools that run blocking and CPU-bound work (``Offload``): how many jobs may
/// wait for a thread, how long every blocking-work thread may spend on its current job before
/// `daemon.health` calls the pool wedged, and how far below the daemon the compute threads run.
///
/// A daemon reads them from its environment (``from(environment:)``); `--check` names a value
/// that is not a number of the right kind (``problems(in:)``).
///
/// ```swift
/// let limits = BlockingWorkLimits.from(environment: [DaemonSettings.blockingQueue.name: "64"])
/// limits.queueLimit  // 64
/// ```
public struct BlockingWorkLimits: Sendable, Equatable {
    /// Jobs that may wait for a thread of each pool (``Offload/run(_:)``'s and
    /// ``Offload/compute(_:)``'s); past it, the call throws `resourceExhausted` (a retry may
    /// succeed) instead of queueing without bound.
    /// `VERTICALS_BLOCKING_QUEUE`; 0: no job waits, one is refused while every thread is busy.
    public var queueLimit = BlockingWorkLimits.defaultQueueLimit
    /// How long every thread of the blocking-work pool may have been running its current job before
    /// `daemon.health` answers `unavailable` (the pool is wedged) rather than healthy.
    /// `VERTICALS_BLOCKING_STALL_SECONDS`. Above the longest job a daemon runs (a backup of its
    /// store), so that a busy pool is not taken for a stuck one.
    public var stallLimit = BlockingWorkLimits.defaultStallLimit
    /// How many nice steps below the daemon the threads of ``Offload/compute(_:)`` run, and the
    /// scheduling group of each of ``ComputeProcesses``' workers (0 to 19): CPU-bound work such as
    /// password hashing then yields the processor to the event loops, the daemon's and the other
    /// daemons', wherever they compete, and still runs whenever a processor is free. The default,
    /// 19, lets it take a processor only when nothing else much wants one; a lower value makes it
    /// keep more of its pace under sustained full load, at the cost of the other requests' latency.
    /// `VERTICALS_COMPUTE_NICE`. A thread or worker takes it when it starts.
    public var computeNice = BlockingWorkLimits.defaultComputeNice

    /// ``queueLimit`` unless `VERTICALS_BLOCKING_QUEUE` says otherwise.
    public static let defaultQueueLimit = 256
    /// ``stallLimit`` unless `VERTICALS_BLOCKING_STALL_SECONDS` says otherwise.
    public static let defaultStallLimit: Duration = .seconds(30)
    /// ``computeNice`` unless `VERTICALS_COMPUTE_NICE` says otherwise.
    public static let defaultComputeNice = 19
    /// The variable ``queueLimit`` is read from.
    public static let queueVariable = DaemonSettings.blockingQueue.name
    /// The variable ``stallLimit`` is read from.
    public static let stallVariable = DaemonSettings.blockingStallSeconds.name

    /// The limits of a configuration built in code: the defaults.
    public init(
        queueLimit: Int = BlockingWorkLimits.defaultQueueLimit,
        stallLimit: Duration = BlockingWorkLimits.defaultStallLimit,
        computeNice: Int = BlockingWorkLimits.defaultComputeNice
    ) {
        self.queueLimit = queueLimit
        self.stallLimit = stallLimit
        self.computeNice = min(max(computeNice, 0), 19)
    }

    /// The defaults, with each variable of `environment` that holds a valid value in its place
    /// (a value ``problems(in:)`` would name keeps the default, as the other limits do).
    public static func from(environment: [String: String]) -> BlockingWorkLimits {
        var limits = BlockingWorkLimits()
        if let value = DaemonSettings.blockingQueue.validValue(in: environment) { limits.queueLimit = value }
        if let value = DaemonSettings.blockingStallSeconds.validValue(in: environment) {
            limits.stallLimit = .milliseconds(Int64((value * 1000).rounded(.up)))
        }
        if let value = DaemonSettings.computeNice.validValue(in: environment) { limits.computeNice = value }
        return limits
    }

    /// What is wrong with the variables in `environment`, one line each.
    public static func problems(in environment: [String: String]) -> [String] {
        [
            DaemonSettings.blockingQueue.entry, DaemonSettings.blockingStallSeconds.entry,
            DaemonSettings.computeNice.entry,
        ].compactMap {
            $0.problem(in: environment)?.description
        }
    }
}
