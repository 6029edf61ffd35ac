import CSSL
import VerticalsWire

/// Why TLS could not be set up or a handshake failed: what was being done and OpenSSL's words.
///
/// Its ``code`` is `certificateRefused` when a certificate was refused, by either side (trying
/// again with the same certificates cannot help), and `failed` otherwise.
public struct TLSError: StoredCodedError {
    /// Whether a certificate was refused.
    public typealias Code = ErrorKind<TLSError>

    /// Whether a certificate was refused, and what failed and why, for logs and users.
    public let storage: CodedErrorStorage<TLSError>

    /// The error `storage` describes.
    public init(storage: CodedErrorStorage<TLSError>) { self.storage = storage }

    /// An error saying `description`: of the code `certificateRefused` when `refusesCertificate`,
    /// else `failed`.
    public init(_ description: String, refusesCertificate: Bool = false) {
        self.init(refusesCertificate ? .certificateRefused : .failed, description)
    }

    /// Whether a certificate was refused (the code `certificateRefused`): the peer's by this side,
    /// or this side's by the peer. Trying again with the same certificates cannot help.
    public var refusesCertificate: Bool { code == .certificateRefused }

    /// `what`, with the oldest error OpenSSL queued on this thread (the queue is cleared).
    static func openSSL(_ what: String) -> TLSError {
        let certificate = vt_ssl_error_is_certificate() != 0
        var text = [CChar](repeating: 0, count: 256)
        vt_ssl_error_text(&text, text.count)
        let detail = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return TLSError(certificate ? .certificateRefused : .failed, detail.isEmpty ? what : "\(what): \(detail)")
    }
}

extension ErrorKind where Domain == TLSError {
    /// A certificate was refused: the peer's by this side (unsigned by the suite's authority, or
    /// not naming the peer expected), or this side's by the peer (an alert).
    public static var certificateRefused: Self { Self("certificateRefused") }
    /// Any other failure: a file that could not be loaded, a handshake not finished, a corrupt
    /// record.
    public static var failed: Self { Self("failed") }
}
