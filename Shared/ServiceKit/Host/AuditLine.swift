#if canImport(Glibc)
import Glibc
#endif
import VerticalsEventLoop
import VerticalsWire

/// One line per privileged action, in logfmt (`key=value`, values with spaces quoted) so a log
/// shipper can parse it: what was done, by whom, and how it ended.
///
/// ```
/// audit service=identity operation=identity.grantRole caller=root caller_uid=0 caller_gid=0 caller_pid=4242 outcome=ok
/// audit service=identity operation=identity.grantRole caller=verticals://operator caller_certificate=verticals://operator outcome=ok
/// ```
///
/// Every operator-only operation (`OperationMark/operatorOnly`) is audited, refusals included.
///
/// Which operations: ``PeerAccess/auditedOperations`` (`daemon.backup`, `daemon.setLogLevel`,
/// and those in `VERTICALS_AUDIT_OPERATIONS`) and the vertical's own ``Router/auditedOperations``. `outcome` is `ok` or the error code.
public enum AuditLine {
    /// The line for `operation` of `service`, called by `peer`, ending with `outcome`.
    public static func text(
        service: String, operation: String, peer: PeerCredentials?, callerName: String?, outcome: String
    ) -> String {
        text(
            service: service, operation: operation, peer: peer, callerName: callerName, outcome: outcome,
            certificate: nil)
    }

    /// The same, with `certificate`, the verified certificate's vertical name over mutual TLS
    /// (`caller_certificate`; empty: a certificate that names none).
    public static func text(
        service: String, operation: String, peer: PeerCredentials?, callerName: String?, outcome: String,
        certificate: String?
    ) -> String {
        var fields: [(String, String)] = [("service", service), ("operation", operation)]
        fields.append(("caller", callerName ?? peer.map { "uid \($0.uid)" } ?? "unknown"))
        if let peer {
            fields += [("caller_uid", "\(peer.uid)"), ("caller_gid", "\(peer.gid)"), ("caller_pid", "\(peer.pid)")]
        }
        if let certificate {
            fields.append(("caller_certificate", certificate.isEmpty ? "none" : "verticals://\(certificate)"))
        }
        fields.append(("outcome", outcome))
        return "audit " + fields.map { "\($0.0)=\(quoted($0.1))" }.joined(separator: " ")
    }

    /// `value` as logfmt writes it: bare when it holds no space, `"`, `=` or control character;
    /// else quoted, with any control character but newline, tab and carriage return as a space.
    public static func quoted(_ value: String) -> String {
        let plain =
            !value.isEmpty
            && value.unicodeScalars.allSatisfy { $0.value > 0x20 && $0 != "\"" && $0 != "=" && $0 != "\\" }
        return plain ? value : doubleQuoted(value) { $0.value < 0x20 ? " " : nil }
    }
}
