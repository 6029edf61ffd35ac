import Glibc

/// The value every process a test starts carries as `VT_TEST_TAG`: this run's own, from the
/// test process's environment (`make test` sets a fresh one per run), else `1`. After the run,
/// `scripts/kill-tagged.sh TAG` kills what is left of this run only, never another run's
/// processes on the same machine.
public enum TestRunTag {
    /// The tag of this run.
    public static let value: String = getenv("VT_TEST_TAG").map { String(cString: $0) } ?? "1"
}
