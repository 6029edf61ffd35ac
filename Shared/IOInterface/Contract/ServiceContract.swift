/// A vertical's whole contract: its name and every operation it serves.
///
/// Each vertical has one namespace in IOInterface that conforms, e.g. ``Identity``.
/// Adding an operation means adding it to ``operations`` too; a test checks that
/// every operation named in a contract is listed there.
public protocol ServiceContract: Sendable {
    /// The vertical's name: its socket is `<name>.sock`, its operations `<name>.<op>`.
    static var name: String { get }
    /// One sentence about what the vertical owns.
    static var summary: String { get }
    /// Every operation the vertical serves.
    static var operations: [OperationDescriptor] { get }
}

/// Every contract in IOInterface, for tools that work across the suite (`describe`, the lock file, `call`).
public enum Contracts {
    /// All vertical contracts, in dependency order.
    public static let all: [any ServiceContract.Type] = [Identity.self, Clinics.self, Notifications.self, Appointments.self, Records.self]

    /// The contracts of the suite's own machinery, which are not verticals: the supervisor's
    /// control interface (served on `<run dir>/supervisor.sock`, not in the socket folder).
    public static let control: [any ServiceContract.Type] = [Supervisor.self]

    /// The operations ServiceKit answers on every daemon's socket (``Daemon``).
    public static let builtin: [any ServiceContract.Type] = [Daemon.self]

    /// The operation named `service.operation`, if any contract declares it (verticals and control).
    public static func operation(_ fullName: String) -> OperationDescriptor? {
        for contract in all + control {
            if let found = contract.operations.first(where: { $0.fullName == fullName }) { return found }
        }
        return nil
    }
}
