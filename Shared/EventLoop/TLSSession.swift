import CSSL

/// One connection's TLS state: an OpenSSL `SSL` between two memory BIOs, so libuv keeps doing
/// all the I/O: ciphertext read from the socket goes in with ``receive(_:plaintext:)``, and what
/// OpenSSL wants sent (handshake records, sealed frames) comes out of ``takeOutput()``.
/// Loop-confined, owned by its ``Connection``.
final class TLSSession {
    let ssl: OpaquePointer
    /// The memory BIOs between the socket and the `SSL`. A memory BIO keeps the largest buffer it
    /// ever held for its life, so neither is let grow past a bound (``longestKeptInput``,
    /// ``sealSlice``): a connection that once moved a long frame keeps no more than one that never did.
    private var incoming: OpaquePointer
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

    /// The most ciphertext the incoming BIO keeps room for between reads: one record's. A longer
    /// read (up to the connection's read buffer) is opened, and then the emptied BIO is replaced.
    static let longestKeptInput = (16 << 10) + 512

    /// The most plaintext sealed by one `SSL_write`: one TLS record's. A longer frame is sealed a
    /// record at a time, each record moved out of the outgoing BIO as it is made, so the BIO holds
    /// one record, not a copy of the whole frame kept at that size for the connection's life.
    static let sealSlice = 16 << 10

    /// Records of a frame longer than ``sealSlice`` already moved out of the outgoing BIO, and
    /// handed out by the next ``takeOutput()``.
    private var sealed: [UInt8] = []

    /// Takes ciphertext from the socket; hands every byte of plaintext it yields to `plaintext`.
    /// Returns false when the peer ended TLS (close_notify).
    func receive(_ bytes: UnsafeRawBufferPointer, plaintext: (UnsafeRawBufferPointer) -> Void) throws(TLSError) -> Bool
    {
        if !bytes.isEmpty {
            guard BIO_write(incoming, bytes.baseAddress, Int32(bytes.count)) == Int32(bytes.count) else {
                throw .openSSL("cannot buffer TLS input")
            }
        }
        defer { if bytes.count > Self.longestKeptInput { replaceIncomingWhenEmpty() } }
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

    /// Swaps the incoming BIO for a new one once OpenSSL took every byte of it (it keeps a
    /// partial record in its own buffer): the old one freed, with the room a long read made.
    private func replaceIncomingWhenEmpty() {
        guard BIO_ctrl_pending(incoming) == 0, let fresh = BIO_new(BIO_s_mem()) else { return }
        SSL_set0_rbio(ssl, fresh) // frees the old one
        incoming = fresh
    }

    /// Encrypts `plaintext` into the output, a record at a time (``sealSlice``).
    func seal(_ plaintext: UnsafeRawBufferPointer) throws(TLSError) {
        guard let base = plaintext.baseAddress else { return }
        var start = 0
        while start < plaintext.count {
            let count = min(Self.sealSlice, plaintext.count - start)
            guard SSL_write(ssl, base + start, Int32(count)) == Int32(count) else {
                throw .openSSL("TLS write failed")
            }
            start += count
            guard start < plaintext.count else { break }
            if sealed.isEmpty {
                // The records' overhead is well under 64 bytes each (header, tag, padding byte).
                let records = (plaintext.count - start) / Self.sealSlice + 1
                sealed.reserveCapacity(Int(BIO_ctrl_pending(outgoing)) + plaintext.count - start + records * 64)
            }
            moveOutput(into: &sealed)
        }
    }

    /// The bytes OpenSSL produced for the peer since the last call (empty when none).
    func takeOutput() -> [UInt8] {
        var bytes: [UInt8] = []
        swap(&bytes, &sealed)
        moveOutput(into: &bytes)
        return bytes
    }

    /// Appends what the outgoing BIO holds to `bytes`, and empties it.
    private func moveOutput(into bytes: inout [UInt8]) {
        let pending = Int(BIO_ctrl_pending(outgoing))
        guard pending > 0 else { return }
        let outgoing = outgoing
        bytes.append(addingCapacity: pending) { span in
            span.withUnsafeMutableBufferPointer { room, initialized in
                initialized = Int(max(0, BIO_read(outgoing, room.baseAddress, Int32(pending))))
            }
        }
    }

    /// The room the two memory BIOs hold, in bytes: what the session keeps between frames.
    var bufferRoom: Int {
        [incoming, outgoing].reduce(0) { total, bio in
            var memory: UnsafeMutablePointer<BUF_MEM>?
            BIO_ctrl(bio, BIO_C_GET_BUF_MEM_PTR, 0, &memory)
            return total + (memory?.pointee.max ?? 0)
        }
    }

    private static func name(of ssl: OpaquePointer) -> String? {
        var text = [CChar](repeating: 0, count: 256)
        let length = vt_ssl_peer_uri(ssl, TLSContext.namePrefix, &text, text.count)
        guard length > 0 else { return nil }
        return String(decoding: text.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
