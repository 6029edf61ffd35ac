// The direct body codec of notifications' messages: the fast path beside each schema.
// `SchemaConformanceTests` proves every one writes exactly what its schema says.

extension Notifications.SendInput {
    public func encode(to body: inout BodyWriter) {
        body.write(1, userID)
        body.write(2, title)
        body.write(3, self.body)
        body.write(4, deduplicationKey)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var userID: String?
        var title: String?
        var text: String?
        var deduplicationKey: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: userID = try body.read()
            case 2: title = try body.read()
            case 3: text = try body.read()
            case 4: deduplicationKey = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            userID: try body.required(userID, 1), title: try body.required(title, 2), body: try body.required(text, 3),
            deduplicationKey: deduplicationKey)
    }
}

extension Notifications.InboxInput {
    public func encode(to body: inout BodyWriter) {
        body.write(1, token)
        body.write(2, unreadOnly)
        body.write(3, limit)
        body.write(4, cursor)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var token: String?
        var unreadOnly = false
        var limit = 50
        var cursor: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: token = try body.read()
            case 2: unreadOnly = try body.read()
            case 3: limit = try body.read()
            case 4: cursor = try body.read()
            default: try body.skip()
            }
        }
        self.init(token: try body.required(token, 1), unreadOnly: unreadOnly, limit: limit, cursor: cursor)
    }
}

extension Notifications.MarkReadInput {
    public func encode(to body: inout BodyWriter) {
        body.write(1, token)
        body.write(2, id)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var token: String?
        var id: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: token = try body.read()
            case 2: id = try body.read()
            default: try body.skip()
            }
        }
        self.init(token: try body.required(token, 1), id: try body.required(id, 2))
    }
}

extension Notifications.Notification {
    public func encode(to body: inout BodyWriter) {
        body.write(1, id)
        body.write(2, userID)
        body.write(3, title)
        body.write(4, self.body)
        body.write(5, createdAt)
        body.write(6, readAt)
        body.write(7, deduplicationKey)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var id: String?
        var userID: String?
        var title: String?
        var text: String?
        var createdAt: Timestamp?
        var readAt: Timestamp?
        var deduplicationKey: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: id = try body.read()
            case 2: userID = try body.read()
            case 3: title = try body.read()
            case 4: text = try body.read()
            case 5: createdAt = try body.read()
            case 6: readAt = try body.read()
            case 7: deduplicationKey = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            id: try body.required(id, 1), userID: try body.required(userID, 2), title: try body.required(title, 3),
            body: try body.required(text, 4), createdAt: try body.required(createdAt, 5), readAt: readAt,
            deduplicationKey: deduplicationKey)
    }
}

extension Notifications.Inbox {
    public func encode(to body: inout BodyWriter) {
        body.write(1, notifications)
        body.write(2, unreadCount)
        body.write(3, nextCursor)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var notifications: [Notifications.Notification] = []
        var unreadCount: Int?
        var nextCursor: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: try body.append(to: &notifications)
            case 2: unreadCount = try body.read()
            case 3: nextCursor = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            notifications: notifications, unreadCount: try body.required(unreadCount, 2), nextCursor: nextCursor)
    }
}
