// The direct body codec of appointments' messages: the fast path beside each schema.
// `SchemaConformanceTests` proves every one writes exactly what its schema says.

extension Appointments.BookInput {
    public func encode(to body: inout BodyWriter) {
        body.write(1, token)
        body.write(2, clinicID)
        body.write(3, service)
        body.write(4, startsAt)
        body.write(5, durationMinutes)
        body.write(6, reason)
        body.write(7, requestID)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var token: String?
        var clinicID: String?
        var service: Clinics.Service?
        var startsAt: Timestamp?
        var durationMinutes: Int?
        var reason = ""
        var requestID: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: token = try body.read()
            case 2: clinicID = try body.read()
            case 3: service = try body.read()
            case 4: startsAt = try body.read()
            case 5: durationMinutes = try body.read()
            case 6: reason = try body.read()
            case 7: requestID = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            token: try body.required(token, 1), clinicID: try body.required(clinicID, 2),
            service: try body.required(service, 3), startsAt: try body.required(startsAt, 4),
            durationMinutes: try body.required(durationMinutes, 5), reason: reason,
            requestID: try body.required(requestID, 7))
    }
}

extension Appointments.AppointmentRef {
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

extension Appointments.ListInput {
    public func encode(to body: inout BodyWriter) {
        body.write(1, token)
        body.write(2, from)
        body.write(3, to)
        body.write(4, includeCancelled)
        body.write(5, limit)
        body.write(6, cursor)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var token: String?
        var from: Timestamp?
        var to: Timestamp?
        var includeCancelled = false
        var limit = 50
        var cursor: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: token = try body.read()
            case 2: from = try body.read()
            case 3: to = try body.read()
            case 4: includeCancelled = try body.read()
            case 5: limit = try body.read()
            case 6: cursor = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            token: try body.required(token, 1), from: try body.required(from, 2), to: try body.required(to, 3),
            includeCancelled: includeCancelled, limit: limit, cursor: cursor)
    }
}

extension Appointments.Appointment {
    public func encode(to body: inout BodyWriter) {
        body.write(1, id)
        body.write(2, patientID)
        body.write(3, clinicID)
        body.write(4, clinicName)
        body.write(5, service)
        body.write(6, startsAt)
        body.write(7, endsAt)
        body.write(8, reason)
        body.write(9, status)
        body.write(10, createdAt)
        body.write(11, notified)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var id: String?
        var patientID: String?
        var clinicID: String?
        var clinicName: String?
        var service: Clinics.Service?
        var startsAt: Timestamp?
        var endsAt: Timestamp?
        var reason = ""
        var status: Appointments.Status?
        var createdAt: Timestamp?
        var notified = false
        while let tag = try body.nextTag() {
            switch tag {
            case 1: id = try body.read()
            case 2: patientID = try body.read()
            case 3: clinicID = try body.read()
            case 4: clinicName = try body.read()
            case 5: service = try body.read()
            case 6: startsAt = try body.read()
            case 7: endsAt = try body.read()
            case 8: reason = try body.read()
            case 9: status = try body.read()
            case 10: createdAt = try body.read()
            case 11: notified = try body.read()
            default: try body.skip()
            }
        }
        self.init(
            id: try body.required(id, 1), patientID: try body.required(patientID, 2),
            clinicID: try body.required(clinicID, 3), clinicName: try body.required(clinicName, 4),
            service: try body.required(service, 5), startsAt: try body.required(startsAt, 6),
            endsAt: try body.required(endsAt, 7), reason: reason, status: try body.required(status, 9),
            createdAt: try body.required(createdAt, 10), notified: notified)
    }
}

extension Appointments.AppointmentList {
    public func encode(to body: inout BodyWriter) {
        body.write(1, appointments)
        body.write(2, nextCursor)
    }

    public init(from body: inout BodyReader) throws(WireDecodingError) {
        var appointments: [Appointments.Appointment] = []
        var nextCursor: String?
        while let tag = try body.nextTag() {
            switch tag {
            case 1: try body.append(to: &appointments)
            case 2: nextCursor = try body.read()
            default: try body.skip()
            }
        }
        self.init(appointments: appointments, nextCursor: nextCursor)
    }
}
