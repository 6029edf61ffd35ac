/// Why a byte stream stopped being a valid sequence of frames.
///
/// Every case is a protocol error: the receiver answers with an error frame where
/// it can and closes the connection, since the stream cannot be resynchronised.
public struct FrameError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Reason: Equatable {
        case emptyFrame
        case oversized(length: UInt32, limit: Int)
    }

    let reason: Reason

    /// A frame declared a length of zero.
    public static let emptyFrame = FrameError(reason: .emptyFrame)

    /// A frame declared a length above the receiver's limit.
    public static func oversized(length: UInt32, limit: Int) -> FrameError {
        FrameError(reason: .oversized(length: length, limit: limit))
    }

    /// The declared length, when the frame was too large.
    public var declaredLength: UInt32? {
        if case .oversized(let length, _) = reason { return length }
        return nil
    }

    public var description: String {
        switch reason {
        case .emptyFrame:
            "frame length 0 is not allowed: every frame carries at least an envelope"
        case .oversized(let length, let limit):
            "frame length \(length) exceeds this receiver's limit of \(limit) bytes"
        }
    }
}
