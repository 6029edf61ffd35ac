import CSSL
import VerticalsContract
import VerticalsWire

/// The fingerprint of a contract: `sha256:` and the hex SHA-256 of a `Daemon.Description`'s
/// body bytes, which are canonical (fields in tag order, operations in the order given, each
/// message and enumeration once in the order reached). The same operations with the same
/// schemas give the same fingerprint in every process and every build; any change to a field,
/// a doc or an error code gives another. `daemon.contractCheck` compares two of them.
public enum ContractFingerprint {
    /// The fingerprint of `description`.
    public static func of(_ description: Daemon.Description) -> String {
        let body = description.encodedBody(capacity: 1024)
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        _ = body.withUnsafeBufferPointer { bytes in
            digest.withUnsafeMutableBufferPointer { out in SHA256(bytes.baseAddress, bytes.count, out.baseAddress) }
        }
        return "sha256:"
            + digest.map { byte in
                let hex = String(byte, radix: 16)
                return byte < 16 ? "0" + hex : hex
            }.joined()
    }

    /// The description of `operations` as vertical `service` gives them for a fingerprint: no
    /// summary, the operations sorted by name, so a caller and a callee that order their
    /// declarations differently still agree.
    public static func description(of service: String, _ operations: [OperationDescriptor]) -> Daemon.Description {
        ServiceDescription.make(name: service, summary: "", operations: operations.sorted { $0.fullName < $1.fullName })
    }

    /// A fingerprint shortened for a message: its first 12 hex digits.
    public static func short(_ fingerprint: String) -> String {
        fingerprint.hasPrefix("sha256:") ? String(fingerprint.dropFirst(7).prefix(12)) : String(fingerprint.prefix(12))
    }
}
