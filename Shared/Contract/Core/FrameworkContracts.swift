/// The contracts the framework itself serves, whatever the product: the same in every suite.
///
/// A product lists its own verticals' contracts in its contracts module (the reference suite's
/// `Contracts.all` in IOInterface); tools that work across a suite add these two lists to it.
///
/// ```swift
/// let everything = Contracts.all + FrameworkContracts.control + FrameworkContracts.builtin
/// ```
public enum FrameworkContracts {
    /// The contracts of the suite's own machinery, which are not verticals: the supervisor's
    /// control interface (served on `<run dir>/supervisor.sock`, not in the socket folder).
    public static let control: [any ServiceContract.Type] = [Supervisor.self]

    /// The operations ServiceKit answers on every daemon's socket (``Daemon``).
    public static let builtin: [any ServiceContract.Type] = [Daemon.self]
}
