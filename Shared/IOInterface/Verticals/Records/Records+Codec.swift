// The direct body codec of records' messages: the fast path beside each schema.
// `SchemaConformanceTests` proves every one writes exactly what its schema says.

extension Records.AddEntryInput {
    public func encode(to body: inout BodyWriter) {
        body.write(1, token)
        body.write(2, kind)
        body.write(3, text)
        body.write(4, clinicID)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var token: String?
        var kind: Records.EntryKind?
        var text: String?
        var clinicID: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: token = try body.read()
            case 2: kind = try body.read()
            case 3: text = try body.read()
            case 4: clinicID = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            token: try body.required(token, 1), kind: try body.required(kind, 2), text: try body.required(text, 3),
            clinicID: clinicID)
    }
}

extension Records.HistoryInput {
    public func encode(to body: inout BodyWriter) {
        body.write(1, token)
        body.write(2, kind)
        body.write(3, limit)
        body.write(4, cursor)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var token: String?
        var kind: Records.EntryKind?
        var limit = 50
        var cursor: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: token = try body.read()
            case 2: kind = try body.read()
            case 3: limit = try body.read()
            case 4: cursor = try body.read()
            default: try body.skip()
            }
        }
        self.init(token: try body.required(token, 1), kind: kind, limit: limit, cursor: cursor)
    }
}

extension Records.NearbyPharmaciesInput {
    public func encode(to body: inout BodyWriter) {
        body.write(1, token)
        body.write(2, latitude)
        body.write(3, longitude)
        body.write(4, limit)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var token: String?
        var latitude: Double?
        var longitude: Double?
        var limit = 5
        while let tag = try body.nextTag() {
            switch tag {
            case 1: token = try body.read()
            case 2: latitude = try body.read()
            case 3: longitude = try body.read()
            case 4: limit = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            token: try body.required(token, 1), latitude: try body.required(latitude, 2),
            longitude: try body.required(longitude, 3), limit: limit)
    }
}

extension Records.DeleteEntryInput {
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

extension Records.Entry {
    public func encode(to body: inout BodyWriter) {
        body.write(1, id)
        body.write(2, userID)
        body.write(3, kind)
        body.write(4, text)
        body.write(5, clinicID)
        body.write(6, clinicName)
        body.write(7, createdAt)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var id: String?
        var userID: String?
        var kind: Records.EntryKind?
        var text: String?
        var clinicID: String?
        var clinicName: String?
        var createdAt: Timestamp?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: id = try body.read()
            case 2: userID = try body.read()
            case 3: kind = try body.read()
            case 4: text = try body.read()
            case 5: clinicID = try body.read()
            case 6: clinicName = try body.read()
            case 7: createdAt = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            id: try body.required(id, 1), userID: try body.required(userID, 2), kind: try body.required(kind, 3),
            text: try body.required(text, 4), clinicID: clinicID, clinicName: clinicName,
            createdAt: try body.required(createdAt, 7))
    }
}

extension Records.History {
    public func encode(to body: inout BodyWriter) {
        body.write(1, entries)
        body.write(2, clinicNamesResolved)
        body.write(3, nextCursor)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var entries: [Records.Entry] = []
        var clinicNamesResolved: Bool?
        var nextCursor: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: try body.append(to: &entries)
            case 2: clinicNamesResolved = try body.read()
            case 3: nextCursor = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            entries: entries, clinicNamesResolved: try body.required(clinicNamesResolved, 2), nextCursor: nextCursor)
    }
}
