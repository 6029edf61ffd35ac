import Glibc

/// Joins a network namespace made by `ip netns add` (a file in `/var/run/netns`), for one thread.
///
/// A socket belongs to the namespace of the thread that made it, for life: a client made on a
/// thread inside namespace `vt-1-op` talks from that "host" however it is used afterwards. Only
/// the network namespace changes, so files, processes and `/etc` stay the test process's own.
///
/// ```swift
/// let raw = try NetworkNamespace.run(in: "vt-1-op") { try RawClient(host: "10.231.0.10", port: 7001) }
/// try await loop.submit { try NetworkNamespace.enter("vt-1-op") }   // the loop's connections too
/// ```
public enum NetworkNamespace {
    /// The folder `ip netns` keeps its namespaces in.
    public static let folder = "/var/run/netns"

    /// `setns(2)`, looked up at run time: Glibc's module map does not export it to Swift.
    private typealias SetNS = @convention(c) (Int32, Int32) -> Int32
    private static let cloneNewNet: Int32 = 0x4000_0000 // CLONE_NEWNET, <sched.h>

    /// Moves the calling thread into namespace `name`. Only for a thread the caller owns (its
    /// own, or an event loop's): a thread of the concurrency pool would take it to other tasks.
    public static func enter(_ name: String) throws {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "setns") else { throw RawSocketError("no setns in libc") }
        let setns = unsafeBitCast(symbol, to: SetNS.self)
        let descriptor = open("\(folder)/\(name)", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw RawSocketError("open \(folder)/\(name)") }
        defer { close(descriptor) }
        guard setns(descriptor, cloneNewNet) == 0 else { throw RawSocketError("setns into \(name)") }
    }

    /// Runs `body` on a new thread inside namespace `name` and returns what it returned (or
    /// rethrows); the calling thread waits and stays where it is.
    public static func run<T>(in name: String, _ body: @escaping () throws -> T) throws -> T {
        try NewThread.run {
            try enter(name)
            return try body()
        }
    }
}
