import CSSL
import Foundation
import VerticalsWire

/// A development suite's certificates, minted in one step: a suite CA, one certificate per
/// service and one for the operator, laid out as cert-manager lays out a TLS Secret.
///
/// Each leaf names its holder as the transport expects (`URI:verticals://NAME` in its subject
/// alternative names, which the callee maps to the caller), plus DNS names for its Kubernetes
/// Service, and may act as server and client (mutual TLS). Keys are P-256, signatures ECDSA with
/// SHA-256, as TLS 1.3 prefers. Minted with OpenSSL, which the TLS transport links already.
///
/// ```swift
/// let minted = try SuiteCertificates.mint(services: ["identity", "clinics"], namespace: "verticals", days: 365)
/// try CertificateFolder(path: "certs").write(minted, replacing: false)
/// ```
public struct SuiteCertificates: Sendable {
    /// One holder's files, as PEM text.
    public struct Identity: Sendable, Equatable {
        /// The holder: a service name, or ``SuiteCertificates/operatorName``.
        public let name: String
        /// Its certificate (`tls.crt`).
        public let certificate: String
        /// Its private key, PKCS #8 (`tls.key`).
        public let key: String
    }

    /// The name of the operator's certificate: what a vertical's `VERTICALS_ALLOWED_PEERS` lists
    /// for `svc-supervisor` calling over TCP.
    public static let operatorName = "operator"

    /// The suite CA's certificate (`ca.crt`).
    public let authorityCertificate: String
    /// The suite CA's private key (`ca.key`): whoever holds it can mint a suite identity.
    public let authorityKey: String
    /// One per service, in the order given, then the operator's.
    public let identities: [Identity]

    /// Mints a CA and a certificate for each of `services` and the operator, valid `days` from
    /// `now` (less a minute, for clocks a little behind). `namespace`: the Kubernetes namespace
    /// whose Service names go in as DNS names.
    public static func mint(
        services: [String], namespace: String, days: Int, now: Date = Date()
    ) throws(CertificatesError) -> SuiteCertificates {
        guard days > 0 else { throw CertificatesError(.invalidArgument, "--days must be at least 1, not \(days)") }
        // Names go into subjectAltName in OpenSSL's configuration syntax, where ',' and ':' mean something.
        if let bad = (services + [namespace]).first(where: { $0.isEmpty || !$0.utf8.allSatisfy(isNameByte) }) {
            throw CertificatesError(
                .invalidName, "cannot name \"\(bad)\" in a certificate: use letters, digits, '-', '_' and '.'",
                details: [ErrorDetail("name", bad)])
        }
        // The operator's folder and name are the operator's alone (the manifest refuses the name too).
        if services.contains(operatorName) {
            throw CertificatesError(
                .invalidName,
                "a service cannot be named \"\(operatorName)\": that certificate and folder are the operator's",
                details: [ErrorDetail("name", operatorName)])
        }
        let notBefore = time_t(now.timeIntervalSince1970) - 60
        let notAfter = time_t(now.timeIntervalSince1970) + time_t(days) * 86_400
        let authorityKey = try OpenSSLKey()
        let authority = try OpenSSLCertificate(
            subject: ("Verticals", "Verticals suite CA"), key: authorityKey, notBefore: notBefore, notAfter: notAfter)
        try authority.add(NID_basic_constraints, "critical,CA:TRUE,pathlen:0")
        try authority.add(NID_key_usage, "critical,keyCertSign,cRLSign")
        try authority.add(NID_subject_key_identifier, "hash")
        try authority.sign(issuer: nil, key: authorityKey)
        var identities: [Identity] = []
        for name in services + [operatorName] {
            let key = try OpenSSLKey()
            let certificate = try OpenSSLCertificate(
                subject: ("Verticals", name), key: key, notBefore: notBefore, notAfter: notAfter)
            var alternatives = ["URI:verticals://\(name)"]
            if name != operatorName {
                alternatives += [name, "\(name).\(namespace)", "\(name).\(namespace).svc"].map { "DNS:\($0)" }
            }
            try certificate.add(NID_basic_constraints, "critical,CA:FALSE")
            try certificate.add(NID_key_usage, "critical,digitalSignature")
            try certificate.add(NID_ext_key_usage, "serverAuth,clientAuth")
            try certificate.add(NID_subject_alt_name, alternatives.joined(separator: ","))
            try certificate.add(NID_authority_key_identifier, "keyid:always", issuer: authority)
            try certificate.sign(issuer: authority, key: authorityKey)
            identities.append(Identity(name: name, certificate: try certificate.pem(), key: try key.pem()))
        }
        return SuiteCertificates(
            authorityCertificate: try authority.pem(), authorityKey: try authorityKey.pem(), identities: identities)
    }

    /// A byte a service or namespace name may hold in a certificate.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            true
        default: false
        }
    }
}

/// Why certificates could not be minted or written.
///
/// Compare ``code`` with the static members of ``Code`` (new codes may be added); the file or
/// folder it is about is the detail `path`.
public struct CertificatesError: StoredCodedError {
    /// What kind of failure it is.
    public typealias Code = ErrorKind<CertificatesError>

    /// Its code, message and details (`path`, `name`).
    public let storage: CodedErrorStorage<CertificatesError>

    /// The error `storage` describes.
    public init(storage: CodedErrorStorage<CertificatesError>) { self.storage = storage }
}

extension ErrorKind where Domain == CertificatesError {
    /// A value asked for cannot be used (`--days` below 1).
    public static var invalidArgument: Self { Self("invalidArgument") }
    /// A name cannot go in a certificate, or is the operator's: the detail `name` gives it.
    public static var invalidName: Self { Self("invalidName") }
    /// The folder holds certificates already, and replacing them was not asked for.
    public static var exists: Self { Self("exists") }
    /// A folder on the way belongs to another user: the detail `path` names it.
    public static var notOwned: Self { Self("notOwned") }
    /// A system call failed making, reading or writing a file or folder: the detail `path` names it.
    public static var system: Self { Self("system") }
    /// OpenSSL failed making a key or a certificate.
    public static var openSSL: Self { Self("openSSL") }
}
