import Glibc
import IOInterface

/// The wall clock (`CLOCK_REALTIME`) as a Timestamp, for what `status` reports to people
/// (ready since); every interval the engine measures uses the monotonic clock instead.
enum WallClock {
    /// Now.
    static func now() -> Timestamp {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Timestamp(microsecondsSinceEpoch: Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000)
    }
}
