import Crypto
import Foundation
import X509

/// A development suite's certificates, minted in one step: a suite CA, one certificate per
/// service and one for the operator, laid out as cert-manager lays out a TLS Secret.
///
/// Each leaf names its holder as the transport expects (`URI:verticals://NAME` in its subject
/// alternative names, which the callee maps to the caller), plus DNS names for its Kubernetes
/// Service, and may act as server and client (mutual TLS). Keys are P-256, signatures ECDSA with
/// SHA-256, as TLS 1.3 prefers.
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
        guard days > 0 else { throw CertificatesError("--days must be at least 1, not \(days)") }
        let notBefore = now.addingTimeInterval(-60)
        let notAfter = now.addingTimeInterval(Double(days) * 86_400)
        do {
            let authorityKey = P256.Signing.PrivateKey()
            let authorityName = try DistinguishedName {
                OrganizationName("Verticals")
                CommonName("Verticals suite CA")
            }
            let identifier = SubjectKeyIdentifier(hash: Certificate.PublicKey(authorityKey.publicKey))
            let authority = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(),
                publicKey: Certificate.PublicKey(authorityKey.publicKey),
                notValidBefore: notBefore, notValidAfter: notAfter, issuer: authorityName, subject: authorityName,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                    identifier
                },
                issuerPrivateKey: Certificate.PrivateKey(authorityKey))
            var identities: [Identity] = []
            for name in services + [operatorName] {
                let key = P256.Signing.PrivateKey()
                var alternatives: [GeneralName] = [.uniformResourceIdentifier("verticals://\(name)")]
                if name != operatorName {
                    alternatives += [name, "\(name).\(namespace)", "\(name).\(namespace).svc"].map { .dnsName($0) }
                }
                let certificate = try Certificate(
                    version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
                    notValidBefore: notBefore, notValidAfter: notAfter, issuer: authorityName,
                    subject: try DistinguishedName {
                        OrganizationName("Verticals")
                        CommonName(name)
                    },
                    signatureAlgorithm: .ecdsaWithSHA256,
                    extensions: try Certificate.Extensions {
                        Critical(BasicConstraints.notCertificateAuthority)
                        Critical(KeyUsage(digitalSignature: true))
                        try ExtendedKeyUsage([.serverAuth, .clientAuth])
                        SubjectAlternativeNames(alternatives)
                        AuthorityKeyIdentifier(keyIdentifier: identifier.keyIdentifier)
                    },
                    issuerPrivateKey: Certificate.PrivateKey(authorityKey))
                identities.append(Identity(name: name, certificate: try pem(certificate), key: key.pemRepresentation + "\n"))
            }
            return SuiteCertificates(
                authorityCertificate: try pem(authority), authorityKey: authorityKey.pemRepresentation + "\n",
                identities: identities)
        } catch {
            throw CertificatesError("could not mint the certificates: \(error)")
        }
    }

    private static func pem(_ certificate: Certificate) throws -> String {
        try certificate.serializeAsPEM().pemString + "\n"
    }
}

/// Why certificates could not be minted or written.
public struct CertificatesError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for a person.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
