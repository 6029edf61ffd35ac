#if canImport(Glibc)
import Glibc
#endif

extension Timestamp {
    /// The wall clock (`CLOCK_REALTIME`) now, read without Foundation: what a `World`'s clock
    /// is in a daemon, and what the supervisor reports to people (ready since).
    public static var now: Timestamp {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Timestamp(microsecondsSinceEpoch: Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000)
    }
}
