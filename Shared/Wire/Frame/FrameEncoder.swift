/// Writes the 4-byte big-endian length prefix of a frame.
public enum FrameEncoder {
    /// The size of the length prefix.
    public static let headerSize = 4

    /// Returns `payload` with its length prefix, ready to send.
    public static func frame(_ payload: some Collection<UInt8>) -> [UInt8] {
        var writer = ByteWriter(capacity: payload.count + headerSize)
        writer.writeUInt32BE(UInt32(payload.count))
        writer.writeBytes(payload)
        return writer.bytes
    }
}
