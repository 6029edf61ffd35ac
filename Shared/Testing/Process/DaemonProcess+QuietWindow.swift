import Glibc

extension DaemonProcess {
    /// The fewest context switches `pid` made in a `window` (3 s), looking until one has none or
    /// 15 s pass (a daemon finishing start-up, or a sweep settling, is allowed a first window);
    /// -1 once the process is gone. A window in which a thread ended (its count left the sum)
    /// counts as one with activity. A window catches anything that wakes at least once per its length.
    ///
    /// Waiting out the window is the point: the fact measured is that nothing happened during it.
    /// A loaded machine adds no switches to a process that sleeps, it only delays one that wakes.
    public static func quietestWindow(of pid: pid_t, window: Duration = .seconds(3)) async throws -> Int {
        var fewest = Int.max
        let deadline = ContinuousClock.now + max(.seconds(15), window * 3)
        repeat {
            guard let before = contextSwitches(of: pid) else { return -1 }
            try await Task.sleep(for: window)
            guard let after = contextSwitches(of: pid) else { return -1 }
            if after >= before { fewest = min(fewest, after - before) }
        } while fewest > 0 && ContinuousClock.now < deadline
        return fewest
    }
}
