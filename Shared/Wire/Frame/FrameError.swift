/// Why a byte stream stopped being a valid sequence of frames.
///
/// Every case is a protocol error: the receiver answers with an error frame where
/// it can and closes the connection, since the stream cannot be resynchronised.
///
/// Its ``code`` is `emptyFrame` or `oversized`; an oversized frame's declared length and the
/// receiver's limit are also the details `length` and `limit`.
public struct FrameError: CodedError {
    /// What is wrong with the frame.
    public typealias Code = ErrorKind<FrameError>

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

    /// What is wrong with the frame.
    public var code: Code {
        switch reason {
        case .emptyFrame: .emptyFrame
        case .oversized: .oversized
        }
    }

    /// What is wrong with the frame, with its length.
    public var message: String {
        switch reason {
        case .emptyFrame:
            "frame length 0 is not allowed: every frame carries at least an envelope"
        case .oversized(let length, let limit):
            "frame length \(length) exceeds this receiver's limit of \(limit) bytes"
        }
    }

    /// An oversized frame's declared length and the receiver's limit, as `length` and `limit`.
    public var details: [ErrorDetail] {
        switch reason {
        case .emptyFrame: []
        case .oversized(let length, let limit):
            [ErrorDetail("length", String(length)), ErrorDetail("limit", String(limit))]
        }
    }
}

extension ErrorKind where Domain == FrameError {
    /// A frame declared a length of zero.
    public static var emptyFrame: Self { Self("emptyFrame") }
    /// A frame declared a length above the receiver's limit.
    public static var oversized: Self { Self("oversized") }
}
