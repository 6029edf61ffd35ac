import VerticalsClient
import VerticalsContract

extension Builtins {
    /// Serves `daemon.describe`: the vertical's operations as routed (its own, then every
    /// built-in), with the field tables of the messages they reach. The answer is built
    /// once, here, from the router and ``Daemon/operations``, so it does not depend on the
    /// order the built-ins are installed in.
    static func installDescribe(into router: inout Router, configuration: HostConfiguration) {
        guard !router.routes(Daemon.describe.fullName) else { return }
        var operations = router.operations
        for builtin in Daemon.operations where !operations.contains(where: { $0.fullName == builtin.fullName }) {
            operations.append(builtin)
        }
        let description = ServiceDescription.make(
            name: router.service, summary: router.summary, operations: operations)
        router.onSync(Daemon.describe) { _, _ in description }
    }
}
