import VerticalsContract

/// Every contract of the reference suite, for tools built with it (the contract lock, the
/// contract tests, the benchmarks). The framework's own tools learn contracts from the running
/// daemons instead (`daemon.describe`), so nothing outside this suite needs this list.
public enum Contracts {
    /// All vertical contracts, in dependency order.
    public static let all: [any ServiceContract.Type] = [
        Identity.self, Clinics.self, Notifications.self, Appointments.self, Records.self,
    ]

    /// The framework's control contracts (``FrameworkContracts/control``).
    public static let control: [any ServiceContract.Type] = FrameworkContracts.control

    /// The built-in operations every daemon answers (``FrameworkContracts/builtin``).
    public static let builtin: [any ServiceContract.Type] = FrameworkContracts.builtin

    /// The operation named `service.operation`, if any contract declares it (verticals and control).
    public static func operation(_ fullName: String) -> OperationDescriptor? {
        for contract in all + control {
            if let found = contract.operations.first(where: { $0.fullName == fullName }) { return found }
        }
        return nil
    }
}
