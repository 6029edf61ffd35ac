import Glibc

/// This process's open-descriptor limit (`RLIMIT_NOFILE`), which every child it starts inherits.
/// A daemon raises its soft limit to the hard one at start, so the connections it is configured
/// to hold fit in what the service manager allows (systemd's default soft limit is 1,024, its
/// hard one far higher); a benchmark that holds thousands of connections does the same.
public enum DescriptorLimit {
    /// Raises the soft limit to the hard one and returns it (the descriptors this process and its
    /// children may now hold); the soft limit as it was when it cannot be raised.
    public static func raiseToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        // RLIM_INFINITY is all ones; anything past Int.max is as good as no limit.
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }
}
