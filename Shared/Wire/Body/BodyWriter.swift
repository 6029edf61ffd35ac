/// Writes a message body field by field: the direct, fast half of the body codec.
///
/// Each `write` appends a key (`tag << 3 | wireType`, a varint) and the value.
/// `nil` optionals write nothing; arrays write one field per element, in order.
public struct BodyWriter: Sendable {
    /// The bytes written so far.
    public var buffer: ByteWriter

    /// Creates a writer with room for `capacity` bytes.
    @inlinable
    public init(capacity: Int = 64) {
        buffer = ByteWriter(capacity: capacity)
    }

    /// Continues writing into an existing buffer.
    @inlinable
    public init(buffer: ByteWriter) {
        self.buffer = buffer
    }

    /// Appends a field key.
    @inlinable
    public mutating func writeKey(_ tag: UInt32, _ wireType: WireType) {
        buffer.writeVarint(UInt64(tag) << 3 | UInt64(wireType.rawValue))
    }

    /// Appends a field.
    @inlinable
    public mutating func write<Value: WireField>(_ tag: UInt32, _ value: Value) {
        writeKey(tag, Value.wireType)
        value.writeValue(to: &buffer)
    }

    /// Appends a field when it has a value.
    @inlinable
    public mutating func write<Value: WireField>(_ tag: UInt32, _ value: Value?) {
        if let value { write(tag, value) }
    }

    /// Appends one field per element.
    @inlinable
    public mutating func write<Value: WireField>(_ tag: UInt32, _ values: [Value]) {
        for value in values { write(tag, value) }
    }
}
