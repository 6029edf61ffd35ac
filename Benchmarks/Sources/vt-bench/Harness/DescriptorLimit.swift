import Foundation

/// This process's open-descriptor limit (`RLIMIT_NOFILE`), which every child it starts inherits:
/// a curve that holds thousands of connections needs its soft limit raised, and can go no further
/// than the hard one.
enum DescriptorLimit {
    /// Raises the soft limit to the hard one and returns it (the descriptors this process and its
    /// children may now hold); the soft limit as it was when it cannot be raised.
    static func raiseToHard() -> Int {
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
