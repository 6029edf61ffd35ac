import VerticalsContract
import VerticalsWire

/// The contract `vt-alloc-count` serves: an echo whose message holds no heap storage, so that
/// every allocation a request makes is the framework's, and the server's own allocation count.
enum AllocEcho: ServiceContract {
    static let name = "alloccount"
    static let summary = "Answers a number as sent, and how many allocations this process made."
    static let echo = Operation<Number, Number>(name, "echo", summary: "Answer the number as sent.")
    /// Its Input is how many of the next allocations' stacks to write, when the server was
    /// started with `VT_ALLOC_TRACE` naming a folder (0: none).
    static let allocations = Operation<Number, Number>(
        name, "allocations", summary: "How many allocations this process has made while counting.")
    static let operations = [echo.descriptor, allocations.descriptor]

    /// One integer: a message whose decoding and encoding allocate nothing of their own.
    struct Number: WireMessage, Equatable {
        var value: Int

        init(value: Int) {
            self.value = value
        }

        static let schema = MessageSchema("alloccount.Number", [.required(1, "value", .int)])

        func encode(to body: inout BodyWriter) {
            body.write(1, value)
        }

        init(from body: inout BodyReader) throws(WireDecodingError) {
            var value: Int?
            while let tag = try body.nextTag() {
                switch tag {
                case 1: value = try body.read()
                default: try body.skip()
                }
            }
            guard let value else { throw WireDecodingError.missingField(tag: 1) }
            self.value = value
        }
    }
}
