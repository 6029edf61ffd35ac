import VerticalsContract
import VerticalsWire

/// A caller that makes only the calls its vertical declares (``Callees``), and refuses any
/// other before it reaches the wire, as `permissionDenied` naming the missing edge.
///
/// Every World's caller is one (VerticalsStorage's `WorldParts` wraps the daemon's client and a
/// unit test's stub in it), so a use case that calls an undeclared operation fails its first
/// test, not a production request. The check is a few comparisons against a handful of names.
public struct DeclaredCaller: ServiceCalling {
    /// The caller that makes the declared calls.
    public let base: any ServiceCalling
    /// What may be called.
    public let callees: Callees
    /// The vertical whose calls these are, for the refusal's message.
    public let vertical: String

    /// `base`, limited to `callees`.
    public init(_ base: any ServiceCalling, callees: Callees, vertical: String) {
        self.base = base
        self.callees = callees
        self.vertical = vertical
    }

    public func call<Input, Output>(
        _ operation: Operation<Input, Output>, _ input: Input, timeout: Duration?
    ) async throws(ServiceError) -> Output {
        guard
            callees.allows(
                fullName: operation.fullName, service: operation.service,
                operatorOnly: !operation.marks.isEmpty && operation.marks.contains(.operatorOnly))
        else { throw refusal(operation) }
        return try await base.call(operation, input, timeout: timeout)
    }

    /// The refusal of a call to `operation`: ``RouteRefusal/undeclaredInCode``, naming the edge.
    func refusal(_ operation: some NamedOperation) -> ServiceError {
        RouteRefusal.undeclaredInCode(
            caller: vertical, operation: operation.qualifiedName, service: operation.service,
            operatorOnly: operation.isOperatorOnly, declared: callees.description)
    }
}
