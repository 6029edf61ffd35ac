import CSSL

/// One connection's TLS state: an OpenSSL `SSL` between two memory BIOs, so libuv keeps doing
/// all the I/O: ciphertext read from the socket goes in with ``receive(_:plaintext:)``, and what
/// OpenSSL wants sent (handshake records, sealed frames) comes out of ``takeOutput()``.
/// Loop-confined, owned by its ``Connection``.
final class TLSSession {
    let ssl: OpaquePointer
    private let incoming: OpaquePointer
    private let outgoing: OpaquePointer
    private(set) var isEstablished = false
    /// The peer's vertical name (`verticals://NAME` in its certificate), once established.
    private(set) var peerName: String?
    /// Kept alive while the session uses it.
    let context: TLSContext
    /// Where records are opened into, reused by every read (one TLS record is at most 16 KiB);
    /// made at the first read after the handshake, so a handshake that never ends costs none.
    private var plaintextBuffer: [UInt8] = []

    init(context: TLSContext) throws(TLSError) {
        guard let ssl = SSL_new(context.context) else { throw .openSSL("cannot create a TLS session") }
        guard let incoming = BIO_new(BIO_s_mem()), let outgoing = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw .openSSL("cannot create TLS buffers")
        }
        SSL_set_bio(ssl, incoming, outgoing) // the SSL owns both from here
        if context.role == .server { SSL_set_accept_state(ssl) } else { SSL_set_connect_state(ssl) }
        self.ssl = ssl
        self.incoming = incoming
        self.outgoing = outgoing
        self.context = context
    }

    deinit {
        SSL_free(ssl)
    }

    /// Advances the handshake with what was received so far; true once it is complete.
    @discardableResult
    func handshake() throws(TLSError) -> Bool {
        guard !isEstablished else { return true }
        let status = SSL_do_handshake(ssl)
        if status == 1 {
            isEstablished = true
            peerName = Self.name(of: ssl)
            return true
        }
        let reason = SSL_get_error(ssl, status)
        guard reason == SSL_ERROR_WANT_READ || reason == SSL_ERROR_WANT_WRITE else {
            let verify = SSL_get_verify_result(ssl)
            if verify != X509_V_OK {
                let text = X509_verify_cert_error_string(verify).map { String(cString: $0) } ?? "code \(verify)"
                ERR_clear_error()
                throw TLSError(.certificateRefused, "TLS handshake failed: the peer's certificate: \(text)")
            }
            throw .openSSL("TLS handshake failed")
        }
        return false
    }

    /// Takes ciphertext from the socket; hands every byte of plaintext it yields to `plaintext`.
    /// Returns false when the peer ended TLS (close_notify).
    func receive(_ bytes: UnsafeRawBufferPointer, plaintext: (UnsafeRawBufferPointer) -> Void) throws(TLSError) -> Bool
    {
        if !bytes.isEmpty {
            guard BIO_write(incoming, bytes.baseAddress, Int32(bytes.count)) == Int32(bytes.count) else {
                throw .openSSL("cannot buffer TLS input")
            }
        }
        guard try handshake() else { return true }
        if plaintextBuffer.isEmpty { plaintextBuffer = [UInt8](repeating: 0, count: 16 << 10) }
        let ssl = ssl
        while true {
            let count = plaintextBuffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if count > 0 {
                plaintextBuffer.withUnsafeBytes { plaintext(UnsafeRawBufferPointer(rebasing: $0[..<Int(count)])) }
                // Nothing more to open (no ciphertext left in the BIO, no plaintext left in the
                // record): another SSL_read would only say so, at about a microsecond a frame.
                if BIO_ctrl_pending(incoming) == 0, SSL_pending(ssl) == 0 { return true }
                continue
            }
            switch SSL_get_error(ssl, count) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE: return true
            case SSL_ERROR_ZERO_RETURN: return false
            default: throw .openSSL("TLS read failed")
            }
        }
    }

    /// Encrypts `plaintext` into the output (a memory BIO takes everything at once).
    func seal(_ plaintext: UnsafeRawBufferPointer) throws(TLSError) {
        guard !plaintext.isEmpty else { return }
        let written = SSL_write(ssl, plaintext.baseAddress, Int32(plaintext.count))
        guard written == Int32(plaintext.count) else { throw .openSSL("TLS write failed") }
    }

    /// The bytes OpenSSL produced for the peer since the last call (empty when none).
    func takeOutput() -> [UInt8] {
        let pending = Int(BIO_ctrl_pending(outgoing))
        guard pending > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: pending)
        let read = bytes.withUnsafeMutableBytes { BIO_read(outgoing, $0.baseAddress, Int32(pending)) }
        return read > 0 ? Array(bytes.prefix(Int(read))) : []
    }

    private static func name(of ssl: OpaquePointer) -> String? {
        var text = [CChar](repeating: 0, count: 256)
        let length = vt_ssl_peer_uri(ssl, TLSContext.namePrefix, &text, text.count)
        guard length > 0 else { return nil }
        return String(decoding: text.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
