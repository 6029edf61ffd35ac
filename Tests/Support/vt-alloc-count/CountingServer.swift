import CAllocCount
import VerticalsServiceKit

/// `vt-alloc-count serve sync|async PARENT`: the echo as a daemon serves it (``DaemonMain``, its
/// runtime, host and router), counting every allocation of its process from the start, with the
/// echo's handler `onSync` or async. `allocations` answers the count: the driver reads it before
/// and after its requests (and asks for stacks, ``AllocationTrace``). Ends on SIGTERM, or when its parent does.
enum CountingServer {
    static func run(handler: String, parent: Int32) -> Int32 {
        vt_alloc_count_die_with_parent(parent)
        let trace = AllocationTrace.open("server-\(handler)")
        vt_alloc_count_arm()
        return DaemonMain.run(AllocEcho.self, arguments: []) { _ in
            var router = Router(service: AllocEcho.self)
            if handler == "sync" {
                router.onSync(AllocEcho.echo) { input, _ in input }
            } else {
                router.on(AllocEcho.echo) { input, _ in input }
            }
            router.onSync(AllocEcho.allocations) { input, _ in
                let count = AllocEcho.Number(value: Int(vt_alloc_count_allocations()))
                AllocationTrace.start(trace, samples: input.value)
                return count
            }
            return ServedVertical(router)
        }
    }
}
