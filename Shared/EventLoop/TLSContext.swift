import CSSL

/// The PEM files of one side of mutual TLS: its certificate (chain), its private key, and the
/// certificate authority that signs every peer of the suite.
public struct TLSFiles: Sendable, Hashable {
    /// This side's certificate, then any intermediates (PEM).
    public var certificate: String
    /// This side's private key (PEM).
    public var key: String
    /// The suite's CA certificate(s) (PEM): a peer must present a certificate they signed.
    public var authority: String

    /// Files at these paths.
    public init(certificate: String, key: String, authority: String) {
        self.certificate = certificate
        self.key = key
        self.authority = authority
    }
}

/// A mutual-TLS 1.3 context for one role (OpenSSL's `SSL_CTX`), loaded from ``TLSFiles``:
/// every connection made from it presents the certificate and requires a peer certificate the
/// authority signed. Immutable once made: to take new files, make a new context (connections
/// already made keep theirs).
public final class TLSContext: @unchecked Sendable {
    // @unchecked Sendable: the SSL_CTX is configured completely in init and never changed after;
    // OpenSSL allows SSL_new from any thread on a context no thread modifies (its reference
    // count is atomic), and the stored Swift properties are immutable.

    /// Which end of the handshake a context's connections take.
    public enum Role: Sendable {
        /// The accepting side.
        case server
        /// The connecting side.
        case client
    }

    /// The files the context was loaded from.
    public let files: TLSFiles
    /// The role of its connections.
    public let role: Role
    let context: OpaquePointer

    /// The prefix of the subjectAltName URI that names a vertical: `verticals://NAME`.
    public static let namePrefix = "verticals://"

    /// Loads `files` for `role`: TLS 1.3 only, peer certificate required and verified.
    ///
    /// - Throws: ``TLSError`` naming the file that could not be used.
    public init(files: TLSFiles, role: Role) throws(TLSError) {
        guard let context = SSL_CTX_new(role == .server ? TLS_server_method() : TLS_client_method()) else {
            throw .openSSL("cannot create a TLS context")
        }
        self.files = files
        self.role = role
        self.context = context
        guard vt_ssl_ctx_tls13_only(context) == 1 else { throw .openSSL("cannot require TLS 1.3") }
        guard SSL_CTX_use_certificate_chain_file(context, files.certificate) == 1 else {
            throw .openSSL("cannot use the certificate \(files.certificate)")
        }
        guard SSL_CTX_use_PrivateKey_file(context, files.key, SSL_FILETYPE_PEM) == 1 else {
            throw .openSSL("cannot use the key \(files.key)")
        }
        guard SSL_CTX_check_private_key(context) == 1 else {
            throw .openSSL("the key \(files.key) does not match the certificate \(files.certificate)")
        }
        guard SSL_CTX_load_verify_locations(context, files.authority, nil) == 1 else {
            throw .openSSL("cannot use the authority \(files.authority)")
        }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nil)
        // No session tickets: peers keep one long connection, and tickets would be post-handshake traffic.
        _ = SSL_CTX_set_num_tickets(context, 0)
    }

    deinit {
        SSL_CTX_free(context)
    }
}
