/// Text that came from a peer or from another vertical (a callee's error message, a name in a
/// description, a finding built from either), cut to a stated number of bytes of UTF-8 when it is
/// made, so that no code path can keep it, log it or serve it whole.
///
/// What is cut ends with a marker that says so and how long the text was; the marker counts
/// against the bound, so ``text`` is never longer than `maxBytes` bytes. Made from bytes that are
/// not valid UTF-8, each invalid sequence becomes one U+FFFD (three bytes), and that too counts
/// against the bound: the work and the result stop at `maxBytes`, however long the input.
///
/// ```swift
/// let why = PeerText(error.message, maxBytes: PeerText.findingMaxBytes)
/// logger.info("calls go unchecked: \(why)")
/// ```
public struct PeerText: Sendable, Hashable, CustomStringConvertible {
    /// The bound of one finding, or of a callee's error kept as one: 512 bytes.
    public static let findingMaxBytes = 512
    /// The smallest bound a text may be given: room for the marker and a little of the text.
    public static let minimumMaxBytes = 64

    /// The text, at most the bound it was made with, in bytes of UTF-8.
    public let text: String
    /// Whether the text was cut (it then ends with the marker).
    public let wasCut: Bool

    public var description: String { text }

    /// `text`, cut to `maxBytes` bytes of UTF-8 (at least ``minimumMaxBytes``) with a marker.
    @inlinable
    public init(_ text: some StringProtocol, maxBytes: Int = PeerText.findingMaxBytes) {
        let maxBytes = max(maxBytes, Self.minimumMaxBytes)
        let length = text.utf8.count
        guard length > maxBytes else {
            self.text = String(text)
            self.wasCut = false
            return
        }
        let marker = Self.marker(length)
        var kept = String.UnicodeScalarView()
        var bytes = 0
        for scalar in text.unicodeScalars {
            let size = UTF8.width(scalar)
            guard bytes + size <= maxBytes - marker.utf8.count else { break }
            kept.append(scalar)
            bytes += size
        }
        self.text = String(kept) + marker
        self.wasCut = true
    }

    /// The bytes `utf8` read as UTF-8 (each invalid sequence as U+FFFD), cut to `maxBytes` bytes
    /// (at least ``minimumMaxBytes``) with a marker; only the bytes that fit are ever read. Bytes
    /// that would read as more than the bound less the marker are cut.
    @inlinable
    public init(decoding utf8: some Collection<UInt8>, maxBytes: Int = PeerText.findingMaxBytes) {
        let maxBytes = max(maxBytes, Self.minimumMaxBytes)
        let marker = Self.marker(utf8.count)
        let room = maxBytes - marker.utf8.count
        var kept = String.UnicodeScalarView()
        var bytes = 0
        var cut = false
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = utf8.makeIterator()
        decoding: while true {
            let scalar: Unicode.Scalar
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): scalar = Unicode.UTF8.decode(encoded)
            case .error: scalar = "\u{FFFD}"
            case .emptyInput: break decoding
            }
            let size = UTF8.width(scalar)
            guard bytes + size <= room else {
                cut = true
                break
            }
            kept.append(scalar)
            bytes += size
        }
        self.text = String(kept) + (cut ? marker : "")
        self.wasCut = cut
    }

    /// What ends a cut text: the length of the whole, so a reader knows how much is missing.
    @usableFromInline
    static func marker(_ length: Int) -> String {
        "… [cut: \(length) bytes in all]"
    }
}
