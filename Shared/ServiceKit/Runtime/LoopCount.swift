#if canImport(Glibc)
import Glibc
#endif
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsWire

/// How many event loops a daemon serves its connections on (`VERTICALS_LOOPS`): by default the
/// cores the process may use, the smaller of its CPU affinity (`sched_getaffinity`) and its
/// cgroup v2 `cpu.max` quota over its period, rounded up (no limit, or no cgroup v2 file: the
/// affinity alone).
///
/// ```
/// VERTICALS_LOOPS=1    # one loop, as before N loops
/// VERTICALS_LOOPS=4    # four, whatever the cores
/// ```
public enum LoopCount {
    /// The variable the count is read from.
    public static let variable = DaemonSettings.loops.name
    /// The most loops a daemon runs, whatever it is told: each is a thread and a libuv loop.
    public static let maximum = 256

    /// The count `environment` asks for, else the cores the process may use; a value that is not
    /// a whole number from 1 to ``maximum`` is a failure that says so (the host refuses to start).
    public static func from(environment: [String: String]) -> Result<Int, LoopCountError> {
        guard let text = environment[variable] else { return .success(usableCores()) }
        guard let value = DaemonSettings.loops.validValue(in: environment), value <= maximum else {
            return .failure(LoopCountError(text: text))
        }
        return .success(value)
    }

    /// The cores this process may run on: its affinity, capped by its cgroup's `cpu.max`.
    public static func usableCores() -> Int {
        let affinity = affinityCores() ?? 1
        guard let quota = cgroupQuotaCores() else { return affinity }
        return max(1, min(affinity, quota))
    }

    /// CPUs in this process's affinity mask (libuv's `sched_getaffinity` count).
    static func affinityCores() -> Int? {
        let count = EventLoop.availableParallelism
        return count > 0 ? count : nil
    }

    /// `cpu.max`'s quota over its period, rounded up, for this process's cgroup v2 (nil: no
    /// limit, or no v2 cgroup with a cpu controller, as on a v1/v2 hybrid).
    static func cgroupQuotaCores() -> Int? {
        guard let membership = WholeFile.read("/proc/self/cgroup") else { return nil }
        // The v2 line is "0::/path".
        guard let line = membership.split(separator: "\n").first(where: { $0.hasPrefix("0::") }) else { return nil }
        let path = String(line.dropFirst(3))
        for root in ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"] {
            if let text = WholeFile.read(root + path + "/cpu.max") { return quotaCores(cpuMax: text) }
        }
        return nil
    }

    /// Cores a `cpu.max` text allows ("150000 100000" → 2; "max 100000" → nil).
    static func quotaCores(cpuMax text: String) -> Int? {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count >= 2, let quota = Int(fields[0]), let period = Int(fields[1]), quota > 0, period > 0 else {
            return nil
        }
        return (quota + period - 1) / period
    }
}

/// `VERTICALS_LOOPS` holds something other than a whole number from 1 to ``LoopCount/maximum``.
///
/// Its ``code`` is `notALoopCount`; the value as set is also the detail `value`.
public struct LoopCountError: CodedError {
    /// What kind of problem it is.
    public typealias Code = ErrorKind<LoopCountError>

    /// The value as it was set.
    public let text: String

    /// What kind of problem it is: always `notALoopCount`.
    public var code: Code { .notALoopCount }

    /// What is wrong and what to do.
    public var message: String {
        "\(LoopCount.variable)=\"\(text)\" is not a number of event loops: set a whole number from 1 to "
            + "\(LoopCount.maximum), or leave it unset for one loop per usable core"
    }

    /// The value as set, as the detail `value`.
    public var details: [ErrorDetail] { [ErrorDetail("value", text)] }
}

extension ErrorKind where Domain == LoopCountError {
    /// `VERTICALS_LOOPS` is not a whole number of loops in range.
    public static var notALoopCount: Self { Self("notALoopCount") }
}
