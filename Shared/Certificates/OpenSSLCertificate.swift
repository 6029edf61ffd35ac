import CSSL
import Glibc

/// A P-256 key pair in OpenSSL's hands, freed with this value.
final class OpenSSLKey {
    /// The `EVP_PKEY`.
    let pointer: OpaquePointer

    /// A new P-256 key pair from OpenSSL's default random source.
    init() throws(CertificatesError) {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw .openSSL("EVP_PKEY_CTX_new_from_name")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
            EVP_PKEY_generate(context, &key) == 1, let key
        else { throw .openSSL("generating a P-256 key") }
        pointer = key
    }

    deinit { EVP_PKEY_free(pointer) }

    /// The private key as PEM, PKCS #8 (`-----BEGIN PRIVATE KEY-----`), unencrypted.
    func pem() throws(CertificatesError) -> String {
        try OpenSSLCertificate.pem("the key") { PEM_write_bio_PrivateKey($0, pointer, nil, nil, 0, nil, nil) }
    }
}

/// An X.509 v3 certificate being built, then signed: what ``SuiteCertificates`` mints, on OpenSSL's
/// `X509` API (the library the TLS transport links already).
final class OpenSSLCertificate {
    /// The `X509`.
    let pointer: OpaquePointer

    /// A certificate for `subject` (organization, common name) holding `key`'s public half, valid from
    /// `notBefore` to `notAfter` (seconds since 1970), with a random 127-bit serial number. Its issuer
    /// is itself until ``sign(issuer:key:)``.
    init(subject: (organization: String, commonName: String), key: OpenSSLKey, notBefore: time_t, notAfter: time_t)
        throws(CertificatesError)
    {
        guard let certificate = X509_new() else { throw .openSSL("X509_new") }
        pointer = certificate
        guard X509_set_version(certificate, Int(X509_VERSION_3)) == 1 else { throw .openSSL("X509_set_version") }
        let serial = BN_new()
        defer { BN_free(serial) }
        guard BN_rand(serial, 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) == 1,
            BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(certificate)) != nil
        else { throw .openSSL("a serial number") }
        guard ASN1_TIME_set(X509_getm_notBefore(certificate), notBefore) != nil,
            ASN1_TIME_set(X509_getm_notAfter(certificate), notAfter) != nil
        else { throw .openSSL("the validity") }
        guard let name = X509_NAME_new() else { throw .openSSL("X509_NAME_new") }
        defer { X509_NAME_free(name) }
        for (field, value) in [("O", subject.organization), ("CN", subject.commonName)] {
            guard X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, value, -1, -1, 0) == 1 else {
                throw .openSSL("the name's \(field)")
            }
        }
        guard X509_set_subject_name(certificate, name) == 1, X509_set_issuer_name(certificate, name) == 1,
            X509_set_pubkey(certificate, key.pointer) == 1
        else { throw .openSSL("the subject") }
    }

    deinit { X509_free(pointer) }

    /// Adds the extension `nid` with `value` in OpenSSL's configuration syntax (`x509v3_config(5)`),
    /// `critical,` first where it is. Key identifiers are worked out against `issuer` (nil: itself).
    func add(_ nid: Int32, _ value: String, issuer: OpenSSLCertificate? = nil) throws(CertificatesError) {
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.pointer ?? pointer, pointer, nil, nil, 0)
        guard let extensionValue = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
            throw .openSSL("the extension \(String(cString: OBJ_nid2sn(nid))) = \(value)")
        }
        defer { X509_EXTENSION_free(extensionValue) }
        guard X509_add_ext(pointer, extensionValue, -1) == 1 else { throw .openSSL("X509_add_ext") }
    }

    /// Names `issuer` as this certificate's issuer and signs it with `key` (ECDSA with SHA-256);
    /// nil: self-signed with `key`.
    func sign(issuer: OpenSSLCertificate?, key: OpenSSLKey) throws(CertificatesError) {
        if let issuer, X509_set_issuer_name(pointer, X509_get_subject_name(issuer.pointer)) != 1 {
            throw .openSSL("X509_set_issuer_name")
        }
        guard X509_sign(pointer, key.pointer, EVP_sha256()) > 0 else { throw .openSSL("signing") }
    }

    /// The certificate as PEM (`-----BEGIN CERTIFICATE-----`).
    func pem() throws(CertificatesError) -> String {
        try Self.pem("the certificate") { PEM_write_bio_X509($0, pointer) }
    }

    /// What `write` puts in a memory BIO, as text.
    static func pem(_ what: String, _ write: (OpaquePointer) -> Int32) throws(CertificatesError) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw .openSSL("BIO_new") }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw .openSSL("writing \(what) as PEM") }
        var bytes: UnsafeMutablePointer<CChar>?
        let count = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &bytes) // BIO_get_mem_data, a macro
        guard count > 0, let bytes else { throw .openSSL("reading \(what)'s PEM") }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}

extension CertificatesError {
    /// OpenSSL failed at `step`: its oldest queued error says why (the queue is cleared).
    static func openSSL(_ step: String) -> CertificatesError {
        var text = [CChar](repeating: 0, count: 256)
        vt_ssl_error_text(&text, text.count)
        let reason = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return CertificatesError(.openSSL, "OpenSSL failed at \(step)" + (reason.isEmpty ? "" : ": \(reason)"))
    }
}
