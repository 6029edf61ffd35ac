/// The operations every daemon answers on its own socket, whatever vertical it serves:
/// introspection, health, run-time settings. Like varlink's `org.varlink.service`, they live
/// beside a vertical's own operations (`daemon.<op>` in the envelope) and are served by
/// ServiceKit, not by the vertical's code.
///
/// Not a vertical, so it is listed in neither a product's contracts nor ``FrameworkContracts/control``;
/// tools reach it through ``FrameworkContracts/builtin``. Each operation lives in its own file as an
/// extension of this namespace and is appended to ``operations``; its messages are declared in
/// `daemon.vcontract` (docs/CONTRACTS.md), but for `describe`'s in Daemon+Describe.swift.
public enum Daemon: ServiceContract {
    public static let name = "daemon"
    public static let summary = "Operations every daemon answers: introspection, health and run-time settings."

    public static var operations: [OperationDescriptor] {
        [
            describe.descriptor, health.descriptor, setLogLevel.descriptor, backup.descriptor, metrics.descriptor,
            traces.descriptor, contractCheck.descriptor,
        ]
    }
}
