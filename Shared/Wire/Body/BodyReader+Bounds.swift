/// Reading a length-delimited field (a string, bytes, an enumeration's name) no longer than its
/// bound: what the generated decoder calls for a field whose contract declares `maxBytes`, or
/// that gets the default bound of an `input` (docs/CONTRACTS.md).
///
/// The length on the wire is compared with the bound before anything is read, so an oversized
/// value costs no allocation. A string longer than a third of its bound is checked again once
/// decoded, since each invalid UTF-8 sequence it held became a three-byte U+FFFD.
extension BodyReader {
    /// Reads the current field's value as `Value`, refusing more than `maxBytes` bytes.
    @inlinable
    public mutating func read<Value: WireField>(_: Value.Type = Value.self, maxBytes: Int) throws(WireDecodingError)
        -> Value
    {
        try checkLength(atMost: maxBytes)
        return try read(Value.self)
    }

    /// Reads the current field's value as a string of at most `maxBytes` bytes of UTF-8: the
    /// length read once and compared with the bound, then the text made from the bytes in place
    /// (the path of every bounded string of an Input).
    @inlinable
    public mutating func read(_: String.Type = String.self, maxBytes: Int) throws(WireDecodingError) -> String {
        let length = try boundedLength(atMost: maxBytes)
        let start = bytes.index
        let text = bytes.storage.withUnsafeBufferPointer { storage in
            String(decoding: UnsafeBufferPointer(rebasing: storage[start..<start + length]), as: UTF8.self)
        }
        bytes.index = start + length
        if Self.mayOutgrow(length, maxBytes) { try checkDecoded(text, atMost: maxBytes) }
        return text
    }

    /// Reads the current field's enumeration case, whose name has at most `maxBytes` bytes of UTF-8
    /// (an unknown name is kept as decoded, so it is checked as a string is).
    ///
    /// A known case is found by its name's bytes in place; only an unknown name becomes a String.
    @inlinable
    public mutating func read<Value: WireEnum>(_: Value.Type = Value.self, maxBytes: Int) throws(WireDecodingError)
        -> Value
    {
        let length = try boundedLength(atMost: maxBytes)
        let start = bytes.index
        bytes.index = start + length
        let known = bytes.storage.withUnsafeBufferPointer { storage in
            Value.knownCase(named: UnsafeBufferPointer(rebasing: storage[start..<start + length]))
        }
        if let known { return known }
        // Anything else (an unknown case, or bytes equal to a known name only under canonical
        // equivalence) takes the String path, bounded once decoded.
        let value = Value(
            wireName: bytes.storage.withUnsafeBufferPointer { storage in
                String(decoding: UnsafeBufferPointer(rebasing: storage[start..<start + length]), as: UTF8.self)
            })
        try checkDecoded(value.wireName, atMost: maxBytes)
        return value
    }

    /// Appends the current field's enumeration case to `values`, its name at most `maxBytes` bytes.
    @inlinable
    public mutating func append<Value: WireEnum>(to values: inout [Value], maxBytes: Int) throws(WireDecodingError) {
        try checkLength(atMost: maxBytes)
        try append(to: &values)
        if let last = values.last { try checkDecoded(last.wireName, atMost: maxBytes) }
    }

    /// Appends the current field's value to a repeated field's `values`, refusing more than
    /// `maxBytes` bytes (each element is bounded, not the list).
    @inlinable
    public mutating func append<Value: WireField>(to values: inout [Value], maxBytes: Int) throws(WireDecodingError) {
        try checkLength(atMost: maxBytes)
        try append(to: &values)
    }

    /// Appends the current field's string to `values`, refusing more than `maxBytes` bytes of UTF-8.
    @inlinable
    public mutating func append(to values: inout [String], maxBytes: Int) throws(WireDecodingError) {
        try checkLength(atMost: maxBytes)
        try append(to: &values)
        if let last = values.last { try checkDecoded(last, atMost: maxBytes) }
    }

    /// Throws unless the current field, when length-delimited, holds at most `maxBytes` bytes;
    /// reads nothing (another wire type is left for `read` to report).
    @inlinable
    public mutating func checkLength(atMost maxBytes: Int) throws(WireDecodingError) {
        guard wireType == .lengthDelimited else { return }
        let start = bytes.index
        let length: Int
        do { length = try bytes.readLength() } catch { throw error.inside(tag) }
        bytes.index = start
        guard length <= maxBytes else {
            throw WireDecodingError.invalidValue(Self.overBound(length, maxBytes), tag: tag)
        }
    }

    /// Throws unless the decoded `text` has at most `maxBytes` bytes of UTF-8 (it has more only
    /// when invalid sequences were replaced).
    @inlinable
    func checkDecoded(_ text: String, atMost maxBytes: Int) throws(WireDecodingError) {
        let length = text.utf8.count
        guard length <= maxBytes else {
            throw WireDecodingError.invalidValue(
                Self.overBound(length, maxBytes) + " once invalid UTF-8 was replaced", tag: tag)
        }
    }

    /// Reads the current field's length, which must be length-delimited, no longer than what
    /// remains and at most `maxBytes`, leaving the reader at the value's first byte.
    ///
    /// A compare of the declared length, before a byte of the value is read or anything is
    /// allocated; a one-byte length (under 128) is read inline.
    @inlinable
    mutating func boundedLength(atMost maxBytes: Int) throws(WireDecodingError) -> Int {
        guard wireType == .lengthDelimited else {
            throw WireDecodingError.wrongWireType(expected: .lengthDelimited, found: wireType, tag: tag)
        }
        let length: Int
        let at = bytes.index
        if at < bytes.end, bytes.storage[at] < 0x80 {
            length = Int(bytes.storage[at])
            bytes.index = at + 1
            guard length <= bytes.remaining else { throw WireDecodingError.truncated(tag: tag) }
        } else {
            do { length = try bytes.readLength() } catch { throw error.inside(tag) }
        }
        guard length <= maxBytes else {
            throw WireDecodingError.invalidValue(Self.overBound(length, maxBytes), tag: tag)
        }
        // `end` is public and settable: the value must lie in the storage as well as before `end`.
        guard bytes.index + length <= bytes.storage.count else { throw WireDecodingError.truncated(tag: tag) }
        return length
    }

    /// Whether a value of `length` bytes may decode to more than `maxBytes` bytes of UTF-8: each
    /// invalid byte becomes at most one U+FFFD (three bytes), so one within a third of its bound
    /// cannot, and its decoded length need not be checked again.
    @inlinable
    static func mayOutgrow(_ length: Int, _ maxBytes: Int) -> Bool {
        length > maxBytes / 3
    }

    /// Why a value of `length` bytes is refused by a bound of `maxBytes`.
    @usableFromInline
    static func overBound(_ length: Int, _ maxBytes: Int) -> String {
        "\(length) bytes, over its bound of \(maxBytes) bytes"
    }
}
