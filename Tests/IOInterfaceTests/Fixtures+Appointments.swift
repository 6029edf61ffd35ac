import IOInterface
import VerticalsContract
import VerticalsWire

// MARK: Appointments

extension Appointments.BookInput {
    static func fixture(
        token: String = "q5W2c0Ykq3JrGfE8n1xT7bVhLmPz4sAoRdUiNwXyZ6E", clinicID: String = "c_0001",
        service: Clinics.Service = .gp, startsAt: Timestamp = Timestamp(secondsSinceEpoch: 1_795_428_000),
        durationMinutes: Int = 20, reason: String = "persistent cough", requestID: String = "req-3f1c"
    ) -> Self {
        .init(
            token: token, clinicID: clinicID, service: service, startsAt: startsAt, durationMinutes: durationMinutes,
            reason: reason, requestID: requestID)
    }

    static let minimal = Self(
        token: "", clinicID: "", service: .unknown("acupuncture"), startsAt: .epoch, durationMinutes: 0, reason: "",
        requestID: "")
}

extension Appointments.AppointmentRef {
    static func fixture(token: String = "q5W2c0Ykq3JrGfE8n1xT7bVhLmPz4sAoRdUiNwXyZ6E", id: String = "a_91b2") -> Self {
        .init(token: token, id: id)
    }

    static let minimal = Self(token: "", id: "")
}

extension Appointments.ListInput {
    static func fixture(
        token: String = "q5W2c0Ykq3JrGfE8n1xT7bVhLmPz4sAoRdUiNwXyZ6E",
        from: Timestamp = Timestamp(secondsSinceEpoch: 1_795_392_000),
        to: Timestamp = Timestamp(secondsSinceEpoch: 1_795_996_800), includeCancelled: Bool = true, limit: Int = 25,
        cursor: String? = "AQIAAAGbXLzvkAEKYV85MWIyXzAwMDHTx1n0bDq8Qw"
    ) -> Self {
        .init(token: token, from: from, to: to, includeCancelled: includeCancelled, limit: limit, cursor: cursor)
    }

    static let minimal = Self(token: "", from: .epoch, to: .epoch)
}

extension Appointments.Appointment {
    static func fixture(
        id: String = "a_91b2", patientID: String = "u_7f3a", clinicID: String = "c_0001",
        clinicName: String = "Camden Road Health Centre", service: Clinics.Service = .gp,
        startsAt: Timestamp = Timestamp(secondsSinceEpoch: 1_795_428_000),
        endsAt: Timestamp = Timestamp(secondsSinceEpoch: 1_795_429_200), reason: String = "persistent cough",
        status: Appointments.Status = .booked, createdAt: Timestamp = Timestamp(microsecondsSinceEpoch: 1_795_300_000_654_321),
        notified: Bool = true, notification: Appointments.NotificationState? = .sent
    ) -> Self {
        .init(
            id: id, patientID: patientID, clinicID: clinicID, clinicName: clinicName, service: service,
            startsAt: startsAt, endsAt: endsAt, reason: reason, status: status, createdAt: createdAt, notified: notified,
            notification: notification)
    }

    static let minimal = Self(
        id: "", patientID: "", clinicID: "", clinicName: "", service: .gp, startsAt: .epoch, endsAt: .epoch,
        reason: "", status: .unknown("rescheduled"), createdAt: .epoch, notified: false)
}

extension Appointments.AppointmentList {
    static func fixture(
        appointments: [Appointments.Appointment] = [.fixture(), .fixture(id: "a_91b3", status: .cancelled)],
        nextCursor: String? = "AQIAAAGbXLzvkAEKYV85MWIyXzAwMDHTx1n0bDq8Qw"
    ) -> Self {
        .init(appointments: appointments, nextCursor: nextCursor)
    }

    static let minimal = Self(appointments: [])
}

extension Fixtures {
    /// Examples of appointments' messages.
    static let appointments: [Example] = [
        pair(Appointments.BookInput.fixture(), .minimal),
        pair(Appointments.AppointmentRef.fixture(), .minimal),
        pair(Appointments.ListInput.fixture(), .minimal),
        pair(Appointments.Appointment.fixture(), .minimal),
        pair(Appointments.AppointmentList.fixture(), .minimal),
    ].flatMap { $0 }
}
