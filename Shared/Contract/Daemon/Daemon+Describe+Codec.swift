// The direct body codec of `daemon.describe`'s messages: the fast path beside each schema.
import VerticalsWire

extension Daemon.Description {
    public func encode(to body: inout BodyWriter) {
        body.write(1, name)
        body.write(2, summary)
        body.write(3, operations)
        body.write(4, messages)
        body.write(5, enums)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var name: String?
        var summary = ""
        var operations: [Daemon.OperationInfo] = []
        var messages: [Daemon.MessageInfo] = []
        var enums: [Daemon.EnumInfo] = []
        while let tag = try body.nextTag() {
            switch tag {
            case 1: name = try body.read()
            case 2: summary = try body.read()
            case 3: try body.append(to: &operations)
            case 4: try body.append(to: &messages)
            case 5: try body.append(to: &enums)
            default: try body.skip()
            }
        }
        self.init(
            name: try body.required(name, 1), summary: summary, operations: operations, messages: messages,
            enums: enums)
    }
}

extension Daemon.OperationInfo {
    public func encode(to body: inout BodyWriter) {
        body.write(1, name)
        body.write(2, summary)
        body.write(3, input)
        body.write(4, output)
        body.write(5, errors)
        body.write(6, service)
        body.write(7, event)
        body.write(8, route)
        body.write(9, marks)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var name: String?
        var summary = ""
        var input: String?
        var output: String?
        var errors: [ErrorCode] = []
        var service: String?
        var event: String?
        var route: Daemon.RouteInfo?
        var marks: [String] = []
        while let tag = try body.nextTag() {
            switch tag {
            case 1: name = try body.read()
            case 2: summary = try body.read()
            case 3: input = try body.read()
            case 4: output = try body.read()
            case 5: try body.append(to: &errors)
            case 6: service = try body.read()
            case 7: event = try body.read()
            case 8: route = try body.read()
            case 9: try body.append(to: &marks)
            default: try body.skip()
            }
        }
        self.init(
            name: try body.required(name, 1), summary: summary, input: try body.required(input, 3),
            output: try body.required(output, 4), errors: errors, service: try body.required(service, 6),
            event: event, route: route, marks: marks)
    }
}

extension Daemon.MessageInfo {
    public func encode(to body: inout BodyWriter) {
        body.write(1, name)
        body.write(2, doc)
        body.write(3, fields)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var name: String?
        var doc = ""
        var fields: [Daemon.FieldInfo] = []
        while let tag = try body.nextTag() {
            switch tag {
            case 1: name = try body.read()
            case 2: doc = try body.read()
            case 3: try body.append(to: &fields)
            default: try body.skip()
            }
        }
        self.init(name: try body.required(name, 1), doc: doc, fields: fields)
    }
}
