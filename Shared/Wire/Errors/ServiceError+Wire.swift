/// The body of an `error` frame is a ``ServiceError``.
extension ServiceError: WireMessage {
    public static let schema = MessageSchema(
        "wire.Error",
        [
            .required(1, "code", .enumeration(ErrorCode.schema)),
            .defaulted(2, "message", .string, .string("")),
            .repeated(3, "details", .message(ErrorDetail.self)),
            .defaulted(4, "retryable", .bool, .bool(false)),
        ],
        doc: "A typed failure: the body of every error frame.")

    public func encode(to body: inout BodyWriter) {
        body.write(1, code)
        body.write(2, message)
        body.write(3, details)
        body.write(4, retryable)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var code: ErrorCode?
        var message = ""
        var details: [ErrorDetail] = []
        var retryable = false
        while let tag = try body.nextTag() {
            switch tag {
            case 1: code = try body.read()
            case 2: message = try body.read()
            case 3: try body.append(to: &details)
            case 4: retryable = try body.read()
            default: try body.skip()
            }
        }
        self.init(try body.required(code, 1), message, details: details, retryable: retryable)
    }
}

extension ErrorDetail: WireMessage {
    public static let schema = MessageSchema(
        "wire.ErrorDetail", [.required(1, "key", .string), .required(2, "value", .string)])

    public func encode(to body: inout BodyWriter) {
        body.write(1, key)
        body.write(2, value)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var key: String?
        var value: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: key = try body.read()
            case 2: value = try body.read()
            default: try body.skip()
            }
        }
        self.init(try body.required(key, 1), try body.required(value, 2))
    }
}
