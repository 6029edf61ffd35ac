// The direct body codec of clinics' messages: the fast path beside each schema.
// `SchemaConformanceTests` proves every one writes exactly what its schema says.

extension Clinics.CreateInput {
    public func encode(to body: inout BodyWriter) {
        body.write(1, token)
        body.write(2, name)
        body.write(3, address)
        body.write(4, latitude)
        body.write(5, longitude)
        body.write(6, timeZone)
        body.write(7, phone)
        body.write(8, services)
        body.write(9, hours)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var token: String?
        var name: String?
        var address: String?
        var latitude: Double?
        var longitude: Double?
        var timeZone: String?
        var phone: String?
        var services: [Clinics.Service] = []
        var hours: [Clinics.OpeningHours] = []
        while let tag = try body.nextTag() {
            switch tag {
            case 1: token = try body.read()
            case 2: name = try body.read()
            case 3: address = try body.read()
            case 4: latitude = try body.read()
            case 5: longitude = try body.read()
            case 6: timeZone = try body.read()
            case 7: phone = try body.read()
            case 8: try body.append(to: &services)
            case 9: try body.append(to: &hours)
            default: try body.skip()
            }
        }
        self.init(
            token: try body.required(token, 1), name: try body.required(name, 2),
            address: try body.required(address, 3), latitude: try body.required(latitude, 4),
            longitude: try body.required(longitude, 5), timeZone: try body.required(timeZone, 6), phone: phone,
            services: services, hours: hours)
    }
}

extension Clinics.GetInput {
    public func encode(to body: inout BodyWriter) {
        body.write(1, id)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var id: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: id = try body.read()
            default: try body.skip()
            }
        }
        self.init(id: try body.required(id, 1))
    }
}

extension Clinics.SearchInput {
    public func encode(to body: inout BodyWriter) {
        body.write(1, name)
        body.write(2, limit)
        body.write(3, cursor)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var name: String?
        var limit = 20
        var cursor: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: name = try body.read()
            case 2: limit = try body.read()
            case 3: cursor = try body.read()
            default: try body.skip()
            }
        }
        self.init(name: try body.required(name, 1), limit: limit, cursor: cursor)
    }
}

extension Clinics.NearestInput {
    public func encode(to body: inout BodyWriter) {
        body.write(1, latitude)
        body.write(2, longitude)
        body.write(3, limit)
        body.write(4, service)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var latitude: Double?
        var longitude: Double?
        var limit = 5
        var service: Clinics.Service?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: latitude = try body.read()
            case 2: longitude = try body.read()
            case 3: limit = try body.read()
            case 4: service = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            latitude: try body.required(latitude, 1), longitude: try body.required(longitude, 2), limit: limit,
            service: service)
    }
}

extension Clinics.Clinic {
    public func encode(to body: inout BodyWriter) {
        body.write(1, id)
        body.write(2, name)
        body.write(3, address)
        body.write(4, latitude)
        body.write(5, longitude)
        body.write(6, timeZone)
        body.write(7, phone)
        body.write(8, services)
        body.write(9, hours)
        body.write(10, createdAt)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var id: String?
        var name: String?
        var address: String?
        var latitude: Double?
        var longitude: Double?
        var timeZone: String?
        var phone: String?
        var services: [Clinics.Service] = []
        var hours: [Clinics.OpeningHours] = []
        var createdAt: Timestamp?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: id = try body.read()
            case 2: name = try body.read()
            case 3: address = try body.read()
            case 4: latitude = try body.read()
            case 5: longitude = try body.read()
            case 6: timeZone = try body.read()
            case 7: phone = try body.read()
            case 8: try body.append(to: &services)
            case 9: try body.append(to: &hours)
            case 10: createdAt = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            id: try body.required(id, 1), name: try body.required(name, 2), address: try body.required(address, 3),
            latitude: try body.required(latitude, 4), longitude: try body.required(longitude, 5),
            timeZone: try body.required(timeZone, 6), phone: phone, services: services, hours: hours,
            createdAt: try body.required(createdAt, 10))
    }
}

extension Clinics.ClinicList {
    public func encode(to body: inout BodyWriter) {
        body.write(1, clinics)
        body.write(2, nextCursor)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var clinics: [Clinics.Clinic] = []
        var nextCursor: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: try body.append(to: &clinics)
            case 2: nextCursor = try body.read()
            default: try body.skip()
            }
        }
        self.init(clinics: clinics, nextCursor: nextCursor)
    }
}

extension Clinics.NearbyClinic {
    public func encode(to body: inout BodyWriter) {
        body.write(1, clinic)
        body.write(2, distanceMetres)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var clinic: Clinics.Clinic?
        var distanceMetres: Double?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: clinic = try body.read()
            case 2: distanceMetres = try body.read()
            default: try body.skip()
            }
        }
        self.init(clinic: try body.required(clinic, 1), distanceMetres: try body.required(distanceMetres, 2))
    }
}

extension Clinics.NearbyClinics {
    public func encode(to body: inout BodyWriter) {
        body.write(1, clinics)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var clinics: [Clinics.NearbyClinic] = []
        while let tag = try body.nextTag() {
            switch tag {
            case 1: try body.append(to: &clinics)
            default: try body.skip()
            }
        }
        self.init(clinics: clinics)
    }
}

extension Clinics.OpeningHours {
    public func encode(to body: inout BodyWriter) {
        body.write(1, weekday)
        body.write(2, opens)
        body.write(3, closes)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var weekday: Clinics.Weekday?
        var opens: Int?
        var closes: Int?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: weekday = try body.read()
            case 2: opens = try body.read()
            case 3: closes = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            weekday: try body.required(weekday, 1), opens: try body.required(opens, 2),
            closes: try body.required(closes, 3))
    }
}

extension Clinics.GetManyInput {
    public func encode(to body: inout BodyWriter) {
        body.write(1, ids)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var ids: [String] = []
        while let tag = try body.nextTag() {
            switch tag {
            case 1: try body.append(to: &ids)
            default: try body.skip()
            }
        }
        self.init(ids: ids)
    }
}

extension Clinics.CheckSlotInput {
    public func encode(to body: inout BodyWriter) {
        body.write(1, clinicID)
        body.write(2, service)
        body.write(3, startsAt)
        body.write(4, endsAt)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var clinicID: String?
        var service: Clinics.Service?
        var startsAt: Timestamp?
        var endsAt: Timestamp?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: clinicID = try body.read()
            case 2: service = try body.read()
            case 3: startsAt = try body.read()
            case 4: endsAt = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            clinicID: try body.required(clinicID, 1), service: try body.required(service, 2),
            startsAt: try body.required(startsAt, 3), endsAt: try body.required(endsAt, 4))
    }
}

extension Clinics.SlotCheck {
    public func encode(to body: inout BodyWriter) {
        body.write(1, clinicID)
        body.write(2, clinicName)
        body.write(3, offersService)
        body.write(4, isOpen)
        body.write(5, reason)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var clinicID: String?
        var clinicName: String?
        var offersService: Bool?
        var isOpen: Bool?
        var reason: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: clinicID = try body.read()
            case 2: clinicName = try body.read()
            case 3: offersService = try body.read()
            case 4: isOpen = try body.read()
            case 5: reason = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            clinicID: try body.required(clinicID, 1), clinicName: try body.required(clinicName, 2),
            offersService: try body.required(offersService, 3), isOpen: try body.required(isOpen, 4),
            reason: try body.required(reason, 5))
    }
}
