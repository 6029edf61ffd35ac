import CAllocCount
import Glibc
import VerticalsClient

/// `VT_ALLOC_TRACE=FOLDER`: each process writes the stacks of some of its counted allocations
/// (`VT_ALLOC_TRACE_SAMPLES`, default 300) to `FOLDER/ROLE.stacks`, to see which code allocates.
enum AllocationTrace {
    /// How many stacks to write; 0 when no folder is named.
    static var samples: Int {
        guard ProcessEnvironment.current["VT_ALLOC_TRACE"] != nil else { return 0 }
        return ProcessEnvironment.current["VT_ALLOC_TRACE_SAMPLES"].flatMap { Int($0) } ?? 300
    }

    /// The file `role`'s stacks go to, opened for writing; nil when no folder is named.
    static func open(_ role: String) -> Int32? {
        guard let folder = ProcessEnvironment.current["VT_ALLOC_TRACE"] else { return nil }
        let fd = Glibc.open("\(folder)/\(role).stacks", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        return fd >= 0 ? fd : nil
    }

    /// Starts writing the next `samples` allocations' stacks to `fd`, when there is one.
    static func start(_ fd: Int32?, samples: Int) {
        guard let fd, samples > 0 else { return }
        vt_alloc_count_trace(fd, Int32(samples))
    }
}
