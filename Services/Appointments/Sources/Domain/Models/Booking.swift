import IOInterface
import VerticalsContract
import VerticalsWire

/// A booking as appointments stores it: the domain's view of ``Appointments/Appointment``.
///
/// Public, unlike the rest of this library (package access), for one outside user: `make bench`'s
/// durability floor commits appointments' own booking transaction in-process (Benchmarks/, another package).
public struct Booking: Sendable, Equatable {
    public var id: String
    public var patientID: String
    public var clinicID: String
    public var clinicName: String
    public var service: Clinics.Service
    public var startsAt: Timestamp
    public var endsAt: Timestamp
    public var reason: String
    public var status: Appointments.Status
    public var createdAt: Timestamp
    public var requestID: String
    public var notified: Bool

    /// How long a booking may last, in minutes. The store relies on the upper bound: a booking
    /// overlapping `[startsAt, endsAt)` starts after `startsAt - durations.upperBound`, which keeps
    /// its overlap checks to an index range instead of every earlier booking.
    public static let durations = 5...240

    /// Creates a booking.
    public init(
        id: String, patientID: String, clinicID: String, clinicName: String, service: Clinics.Service,
        startsAt: Timestamp, endsAt: Timestamp, reason: String, status: Appointments.Status, createdAt: Timestamp,
        requestID: String, notified: Bool
    ) {
        self.id = id
        self.patientID = patientID
        self.clinicID = clinicID
        self.clinicName = clinicName
        self.service = service
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.reason = reason
        self.status = status
        self.createdAt = createdAt
        self.requestID = requestID
        self.notified = notified
    }

    /// The booking as the contract shows it.
    public var appointment: Appointments.Appointment {
        Appointments.Appointment(
            id: id, patientID: patientID, clinicID: clinicID, clinicName: clinicName, service: service,
            startsAt: startsAt, endsAt: endsAt, reason: reason, status: status, createdAt: createdAt,
            notified: notified, notification: notification)
    }

    /// Where its notification stands: `sent` once notifications acknowledged it, `queued` while
    /// it waits in the outbox.
    public var notification: Appointments.NotificationState {
        notified ? .sent : .queued
    }

    /// Whether this booking and the interval `start..<end` overlap.
    public func overlaps(_ start: Timestamp, _ end: Timestamp) -> Bool {
        startsAt < end && start < endsAt
    }
}
