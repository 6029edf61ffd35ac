// The direct body codec of identity's messages: the fast path beside each schema.
// `SchemaConformanceTests` proves every one writes exactly what its schema says.

extension Identity.RegisterInput {
    public func encode(to body: inout BodyWriter) {
        body.write(1, email)
        body.write(2, password)
        body.write(3, displayName)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var email: String?
        var password: String?
        var displayName: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: email = try body.read()
            case 2: password = try body.read()
            case 3: displayName = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            email: try body.required(email, 1), password: try body.required(password, 2),
            displayName: try body.required(displayName, 3))
    }
}

extension Identity.LoginInput {
    public func encode(to body: inout BodyWriter) {
        body.write(1, email)
        body.write(2, password)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var email: String?
        var password: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: email = try body.read()
            case 2: password = try body.read()
            default: try body.skip()
            }
        }
        self.init(email: try body.required(email, 1), password: try body.required(password, 2))
    }
}

extension Identity.TokenInput {
    public func encode(to body: inout BodyWriter) {
        body.write(1, token)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var token: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: token = try body.read()
            default: try body.skip()
            }
        }
        self.init(token: try body.required(token, 1))
    }
}

extension Identity.RoleChangeInput {
    public func encode(to body: inout BodyWriter) {
        body.write(1, token)
        body.write(2, email)
        body.write(3, role)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var token: String?
        var email: String?
        var role: Identity.Role?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: token = try body.read()
            case 2: email = try body.read()
            case 3: role = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            token: try body.required(token, 1), email: try body.required(email, 2), role: try body.required(role, 3))
    }
}

extension Identity.Account {
    public func encode(to body: inout BodyWriter) {
        body.write(1, userID)
        body.write(2, email)
        body.write(3, displayName)
        body.write(4, roles)
        body.write(5, createdAt)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var userID: String?
        var email: String?
        var displayName: String?
        var roles: [Identity.Role] = []
        var createdAt: Timestamp?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: userID = try body.read()
            case 2: email = try body.read()
            case 3: displayName = try body.read()
            case 4: try body.append(to: &roles)
            case 5: createdAt = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            userID: try body.required(userID, 1), email: try body.required(email, 2),
            displayName: try body.required(displayName, 3), roles: roles, createdAt: try body.required(createdAt, 5))
    }
}

extension Identity.Session {
    public func encode(to body: inout BodyWriter) {
        body.write(1, token)
        body.write(2, expiresAt)
        body.write(3, userID)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var token: String?
        var expiresAt: Timestamp?
        var userID: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: token = try body.read()
            case 2: expiresAt = try body.read()
            case 3: userID = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            token: try body.required(token, 1), expiresAt: try body.required(expiresAt, 2),
            userID: try body.required(userID, 3))
    }
}

extension Identity.Principal {
    public func encode(to body: inout BodyWriter) {
        body.write(1, userID)
        body.write(2, displayName)
        body.write(3, roles)
        body.write(4, expiresAt)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var userID: String?
        var displayName: String?
        var roles: [Identity.Role] = []
        var expiresAt: Timestamp?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: userID = try body.read()
            case 2: displayName = try body.read()
            case 3: try body.append(to: &roles)
            case 4: expiresAt = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            userID: try body.required(userID, 1), displayName: try body.required(displayName, 2), roles: roles,
            expiresAt: try body.required(expiresAt, 4))
    }
}

extension Identity.UserInput {
    public func encode(to body: inout BodyWriter) {
        body.write(1, userID)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var userID: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: userID = try body.read()
            default: try body.skip()
            }
        }
        self.init(userID: try body.required(userID, 1))
    }
}

extension Identity.UserProfile {
    public func encode(to body: inout BodyWriter) {
        body.write(1, userID)
        body.write(2, displayName)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var userID: String?
        var displayName: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: userID = try body.read()
            case 2: displayName = try body.read()
            default: try body.skip()
            }
        }
        self.init(userID: try body.required(userID, 1), displayName: try body.required(displayName, 2))
    }
}
