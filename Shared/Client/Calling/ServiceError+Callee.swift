import VerticalsWire

/// A callee's error, read from its frame no further than what its caller keeps.
///
/// **The rule: a callee's error costs its caller at most what is kept.** The caller never decodes
/// a callee's error whole and cuts it after: a frame of text, or a million details, would be read,
/// allocated and copied on the loop first, as long as the frame limit allows. This decoder reads
/// the message's first ``calleeMessageMaxBytes`` bytes (cut on a UTF-8 boundary, with
/// ``PeerText``'s marker), the first ``calleeMaxDetails`` details, each key and value its first
/// `PeerText.findingMaxBytes` bytes, and a code name its first ``calleeCodeMaxBytes``; the other
/// fields it skips by their length, building nothing. The loop's cost per error frame is then a
/// few KiB of decoding, whatever the callee sends, and what a handler passes on is as small.
extension ServiceError {
    /// The most bytes of a callee's error message a caller keeps: longer is cut with a marker
    /// (``PeerText``), so a handler that passes a callee's error on answers within a stated size.
    package static let calleeMessageMaxBytes = 4096
    /// The most details of a callee's error a caller keeps, each key and value cut to
    /// `PeerText.findingMaxBytes`; the others are skipped unread.
    package static let calleeMaxDetails = 16
    /// The most bytes of a code name a caller keeps from a callee: every known code is shorter; an
    /// unknown one is cut with a marker.
    package static let calleeCodeMaxBytes = PeerText.minimumMaxBytes

    /// The error in the body of `message`, a callee's `error` frame, as a caller keeps it: its
    /// message cut to ``calleeMessageMaxBytes``, at most ``calleeMaxDetails`` details, each cut,
    /// reading no more of the frame than that (the rest is skipped by its length). Throws what
    /// makes the body unreadable as a `wire.Error` (a field's wire type, a length past the end, no
    /// code).
    package init(fromCallee message: Message) throws(WireDecodingError) {
        var body = BodyReader(ByteReader(message.payload, start: message.bodyStart, end: message.bodyEnd))
        do {
            try self.init(fromCallee: &body)
        } catch {
            throw error.resolved(in: ServiceError.schema)
        }
    }

    private init(fromCallee body: inout BodyReader) throws(WireDecodingError) {
        var code: ErrorCode?
        var message = ""
        var details: [ErrorDetail] = []
        var retryable = false
        while let tag = try body.nextTag() {
            switch tag {
            case 1:
                let name = try body.calleeBytes()
                code =
                    name.withUnsafeBufferPointer { ErrorCode.knownCase(named: $0) }
                    ?? .unknown(Self.kept(name, maxBytes: Self.calleeCodeMaxBytes))
            case 2: message = Self.kept(try body.calleeBytes(), maxBytes: Self.calleeMessageMaxBytes)
            case 3 where details.count < Self.calleeMaxDetails: details.append(try body.calleeDetail())
            case 4: retryable = try body.read()
            default: try body.skip()
            }
        }
        self.init(try body.required(code, 1), message, details: details, retryable: retryable)
    }

    /// `bytes` as text of at most `maxBytes` bytes: whole when it fits once decoded (as
    /// `PeerText` keeps a string), else its first bytes with the marker, reading no further.
    fileprivate static func kept(_ bytes: ArraySlice<UInt8>, maxBytes: Int) -> String {
        guard bytes.count <= maxBytes else { return PeerText(decoding: bytes, maxBytes: maxBytes).text }
        return PeerText(String(decoding: bytes, as: UTF8.self), maxBytes: maxBytes).text
    }
}

extension BodyReader {
    /// The current field's bytes, which must be length-delimited, in place; the reader moves past them.
    fileprivate mutating func calleeBytes() throws(WireDecodingError) -> ArraySlice<UInt8> {
        guard wireType == .lengthDelimited else {
            throw WireDecodingError.wrongWireType(expected: .lengthDelimited, found: wireType, tag: tag)
        }
        let length: Int
        do { length = try bytes.readLength() } catch { throw error.inside(tag) }
        let start = bytes.index
        bytes.index = start + length
        return bytes.storage[start..<start + length]
    }

    /// The current field as a `wire.ErrorDetail`, its key and value each cut to
    /// `PeerText.findingMaxBytes`.
    fileprivate mutating func calleeDetail() throws(WireDecodingError) -> ErrorDetail {
        let whole = try calleeBytes()
        var detail = BodyReader(ByteReader(bytes.storage, start: whole.startIndex, end: whole.endIndex))
        var key: String?
        var value: String?
        do {
            while let tag = try detail.nextTag() {
                switch tag {
                case 1: key = ServiceError.kept(try detail.calleeBytes(), maxBytes: PeerText.findingMaxBytes)
                case 2: value = ServiceError.kept(try detail.calleeBytes(), maxBytes: PeerText.findingMaxBytes)
                default: try detail.skip()
                }
            }
            return ErrorDetail(try detail.required(key, 1), try detail.required(value, 2))
        } catch {
            throw error.inside(tag)
        }
    }
}
