/// Reading a length-delimited field (a string, bytes, an enumeration's name) no longer than its
/// bound: what the generated decoder calls for a field whose contract declares `maxBytes`, or
/// that gets the default bound of an `input` (docs/CONTRACTS.md).
///
/// The length on the wire is checked before anything is read, so an oversized value costs no
/// allocation; a string is checked again once decoded, since each invalid UTF-8 sequence it
/// held became a three-byte U+FFFD.
extension BodyReader {
    /// Reads the current field's value as `Value`, refusing more than `maxBytes` bytes.
    @inlinable
    public mutating func read<Value: WireField>(_: Value.Type = Value.self, maxBytes: Int) throws(WireDecodingError) -> Value {
        try checkLength(atMost: maxBytes)
        return try read(Value.self)
    }

    /// Reads the current field's value as a string of at most `maxBytes` bytes of UTF-8: the
    /// length read once, checked, then the text (the path of every bounded string of an Input).
    @inlinable
    public mutating func read(_: String.Type = String.self, maxBytes: Int) throws(WireDecodingError) -> String {
        guard wireType == .lengthDelimited else {
            throw WireDecodingError.wrongWireType(expected: .lengthDelimited, found: wireType, tag: tag)
        }
        let length: Int
        do { length = try bytes.readLength() } catch { throw error.inside(tag) }
        guard length <= maxBytes else { throw WireDecodingError.invalidValue(Self.overBound(length, maxBytes), tag: tag) }
        let text: String
        do { text = try bytes.readUTF8(length) } catch { throw WireDecodingError.truncated(tag: tag) }
        try checkDecoded(text, atMost: maxBytes)
        return text
    }

    /// Reads the current field's enumeration case, whose name has at most `maxBytes` bytes of UTF-8
    /// (an unknown name is kept as decoded, so it is checked as a string is).
    @inlinable
    public mutating func read<Value: WireEnum>(_: Value.Type = Value.self, maxBytes: Int) throws(WireDecodingError) -> Value {
        try checkLength(atMost: maxBytes)
        let value = try read(Value.self)
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
        guard length <= maxBytes else { throw WireDecodingError.invalidValue(Self.overBound(length, maxBytes), tag: tag) }
    }

    /// Throws unless the decoded `text` has at most `maxBytes` bytes of UTF-8 (it has more only
    /// when invalid sequences were replaced).
    @inlinable
    func checkDecoded(_ text: String, atMost maxBytes: Int) throws(WireDecodingError) {
        let length = text.utf8.count
        guard length <= maxBytes else {
            throw WireDecodingError.invalidValue(Self.overBound(length, maxBytes) + " once invalid UTF-8 was replaced", tag: tag)
        }
    }

    /// Why a value of `length` bytes is refused by a bound of `maxBytes`.
    @usableFromInline
    static func overBound(_ length: Int, _ maxBytes: Int) -> String {
        "\(length) bytes, over its bound of \(maxBytes) bytes"
    }
}
