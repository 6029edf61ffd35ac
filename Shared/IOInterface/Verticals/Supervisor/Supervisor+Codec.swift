// The direct body codec of the supervisor's messages: the fast path beside each schema.
// `SchemaConformanceTests` proves every one writes exactly what its schema says.

extension Supervisor.ServiceName {
    public func encode(to body: inout BodyWriter) {
        body.write(1, name)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var name: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: name = try body.read()
            default: try body.skip()
            }
        }
        self.init(name: try body.required(name, 1))
    }
}

extension Supervisor.ServiceStatus {
    public func encode(to body: inout BodyWriter) {
        body.write(1, name)
        body.write(2, state)
        body.write(3, pid)
        body.write(4, uptimeSeconds)
        body.write(5, restarts)
        body.write(6, lastExit)
        body.write(7, ready)
        body.write(8, statusText)
        body.write(9, readySince)
        body.write(10, restartsInWindow)
        body.write(11, backoffRemainingSeconds)
        body.write(12, exitReason)
        body.write(13, rssBytes)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var name: String?
        var state: Supervisor.ServiceState?
        var pid: Int?
        var uptimeSeconds: Double?
        var restarts: Int?
        var lastExit: String?
        var ready: Bool?
        var statusText: String?
        var readySince: Timestamp?
        var restartsInWindow = 0
        var backoffRemainingSeconds: Double?
        var exitReason: Supervisor.ExitReason?
        var rssBytes: Int?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: name = try body.read()
            case 2: state = try body.read()
            case 3: pid = try body.read()
            case 4: uptimeSeconds = try body.read()
            case 5: restarts = try body.read()
            case 6: lastExit = try body.read()
            case 7: ready = try body.read()
            case 8: statusText = try body.read()
            case 9: readySince = try body.read()
            case 10: restartsInWindow = try body.read()
            case 11: backoffRemainingSeconds = try body.read()
            case 12: exitReason = try body.read()
            case 13: rssBytes = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            name: try body.required(name, 1), state: try body.required(state, 2), pid: pid,
            uptimeSeconds: uptimeSeconds, restarts: try body.required(restarts, 5),
            lastExit: try body.required(lastExit, 6), ready: try body.required(ready, 7),
            statusText: try body.required(statusText, 8), readySince: readySince, restartsInWindow: restartsInWindow,
            backoffRemainingSeconds: backoffRemainingSeconds, exitReason: exitReason, rssBytes: rssBytes)
    }
}

extension Supervisor.StatusList {
    public func encode(to body: inout BodyWriter) {
        body.write(1, services)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var services: [Supervisor.ServiceStatus] = []
        while let tag = try body.nextTag() {
            switch tag {
            case 1: try body.append(to: &services)
            default: try body.skip()
            }
        }
        self.init(services: services)
    }
}

extension Supervisor.ReloadResult {
    public func encode(to body: inout BodyWriter) {
        body.write(1, added)
        body.write(2, removed)
        body.write(3, changed)
        body.write(4, unchanged)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var added: [String] = []
        var removed: [String] = []
        var changed: [String] = []
        var unchanged: [String] = []
        while let tag = try body.nextTag() {
            switch tag {
            case 1: try body.append(to: &added)
            case 2: try body.append(to: &removed)
            case 3: try body.append(to: &changed)
            case 4: try body.append(to: &unchanged)
            default: try body.skip()
            }
        }
        self.init(added: added, removed: removed, changed: changed, unchanged: unchanged)
    }
}

extension Supervisor.LogsInput {
    public func encode(to body: inout BodyWriter) {
        body.write(1, name)
        body.write(2, lines)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var name: String?
        var lines = 0
        while let tag = try body.nextTag() {
            switch tag {
            case 1: name = try body.read()
            case 2: lines = try body.read()
            default: try body.skip()
            }
        }
        self.init(name: try body.required(name, 1), lines: lines)
    }
}

extension Supervisor.LogLine {
    public func encode(to body: inout BodyWriter) {
        body.write(1, text)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var text: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: text = try body.read()
            default: try body.skip()
            }
        }
        self.init(text: try body.required(text, 1))
    }
}
