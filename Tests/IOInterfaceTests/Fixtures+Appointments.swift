import IOInterface
import VerticalsContract
import VerticalsWire

// MARK: Appointments

extension Appointments.BookInput {
    static let full = Self(
        token: Fixtures.token, clinicID: "c_0001", service: .gp, startsAt: Timestamp(secondsSinceEpoch: 1_795_428_000),
        durationMinutes: 20, reason: "persistent cough", requestID: "req-3f1c")
    static let minimal = Self(
        token: "", clinicID: "", service: .unknown("acupuncture"), startsAt: .epoch, durationMinutes: 0, reason: "",
        requestID: "")
}

extension Appointments.AppointmentRef {
    static let full = Self(token: Fixtures.token, id: "a_91b2")
    static let minimal = Self(token: "", id: "")
}

extension Appointments.ListInput {
    static let full = Self(
        token: Fixtures.token, from: Timestamp(secondsSinceEpoch: 1_795_392_000),
        to: Timestamp(secondsSinceEpoch: 1_795_996_800), includeCancelled: true, limit: 25,
        cursor: "AQIAAAGbXLzvkAEKYV85MWIyXzAwMDHTx1n0bDq8Qw")
    static let minimal = Self(token: "", from: .epoch, to: .epoch)
}

extension Appointments.Appointment {
    static let full = Self(
        id: "a_91b2", patientID: "u_7f3a", clinicID: "c_0001", clinicName: "Camden Road Health Centre", service: .gp,
        startsAt: Timestamp(secondsSinceEpoch: 1_795_428_000), endsAt: Timestamp(secondsSinceEpoch: 1_795_429_200),
        reason: "persistent cough", status: .booked,
        createdAt: Timestamp(microsecondsSinceEpoch: 1_795_300_000_654_321),
        notified: true, notification: .sent)
    static let minimal = Self(
        id: "", patientID: "", clinicID: "", clinicName: "", service: .gp, startsAt: .epoch, endsAt: .epoch,
        reason: "", status: .unknown("rescheduled"), createdAt: .epoch, notified: false)
}

extension Appointments.AppointmentList {
    static let full = Self(
        appointments: [
            .full,
            Appointments.Appointment.full.with {
                $0.id = "a_91b3"; $0.status = .cancelled
            },
        ],
        nextCursor: "AQIAAAGbXLzvkAEKYV85MWIyXzAwMDHTx1n0bDq8Qw")
    static let minimal = Self(appointments: [])
}
