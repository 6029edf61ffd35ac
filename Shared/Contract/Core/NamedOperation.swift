/// Anything that names one operation of a vertical: an ``Operation``, a ``StreamOperation`` or
/// an ``OperationDescriptor``. A vertical's World lists the operations it calls with these
/// values (`Callees(Identity.authenticate, Clinics.checkSlot)`), so the list is checked by the
/// compiler against the contracts, and names no operation that does not exist.
public protocol NamedOperation: Sendable {
    /// The vertical that serves it, e.g. `identity`.
    var service: String { get }
    /// The operation's name within the vertical, e.g. `authenticate`.
    var name: String { get }
    /// What tools may rely on it for (``OperationMark``), e.g. ``OperationMark/operatorOnly``.
    var marks: [OperationMark] { get }
}

extension NamedOperation {
    /// `service.operation`.
    public var qualifiedName: String { "\(service).\(name)" }

    /// Whether only the operator may call it (``OperationMark/operatorOnly``).
    public var isOperatorOnly: Bool { marks.contains(.operatorOnly) }
}

extension Operation: NamedOperation {}
extension StreamOperation: NamedOperation {}
extension OperationDescriptor: NamedOperation {}

/// A ``NamedOperation`` that carries its whole descriptor (Input, Output, errors) as this build
/// links it: what a caller's `Callees` keeps, so `--describe` can say which schemas the caller
/// was compiled against.
public protocol LinkedOperation: NamedOperation {
    /// The operation's descriptor as this build links it.
    var descriptor: OperationDescriptor { get }
}

extension Operation: LinkedOperation {}
extension StreamOperation: LinkedOperation {}
extension OperationDescriptor: LinkedOperation {
    /// Itself.
    public var descriptor: OperationDescriptor { self }
}
