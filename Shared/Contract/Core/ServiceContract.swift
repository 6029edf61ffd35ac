/// A vertical's whole contract: its name and every operation it serves.
///
/// Each vertical has one namespace in IOInterface that conforms, e.g. `Identity`.
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
