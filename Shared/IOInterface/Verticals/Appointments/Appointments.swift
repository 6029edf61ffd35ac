/// The appointments vertical's contract: patients' bookings at clinics.
///
/// Booking checks the caller's token with ``Identity/authenticate``, the clinic, its
/// service and its opening hours with ``Clinics/checkSlot``, stores the booking durably,
/// then tells the patient through ``Notifications`` (from an outbox, so a notification
/// is never lost when notifications is down, and never sent twice).
public enum Appointments: ServiceContract {
    public static let name = "appointments"
    public static let summary = "Bookings of clinic services by patients."

    /// Books a slot; a retried request with the same `requestID` returns the first booking.
    public static let book = Operation<BookInput, Appointment>(
        name, "book",
        summary: "Book a service at a clinic; idempotent per requestID.",
        errors: [.invalidInput, .unauthenticated, .notFound, .conflict, .unavailable])

    /// Cancels one of the caller's bookings.
    public static let cancel = Operation<AppointmentRef, Appointment>(
        name, "cancel", summary: "Cancel one of your bookings.",
        errors: [.unauthenticated, .notFound, .permissionDenied, .conflict])

    /// Reads one of the caller's bookings.
    public static let get = Operation<AppointmentRef, Appointment>(
        name, "get", summary: "Read one of your bookings.", errors: [.unauthenticated, .notFound, .permissionDenied],
        route: Route("/appointments/{id}"))

    /// Lists the caller's bookings that start within a window.
    public static let list = Operation<ListInput, AppointmentList>(
        name, "list", summary: "List your bookings starting within a time window, earliest first.",
        errors: [.invalidInput, .unauthenticated], route: Route("/appointments"))

    public static let operations = [book.descriptor, cancel.descriptor, get.descriptor, list.descriptor]

    // MARK: Inputs

    /// The Input of ``Appointments/book``.
    public struct BookInput: WireMessage {
        /// The patient's session token.
        public var token: String
        /// The clinic, from ``Clinics/Clinic/id``.
        public var clinicID: String
        /// The service booked; the clinic must offer it.
        public var service: Clinics.Service
        /// When the appointment starts.
        public var startsAt: Timestamp
        /// How long it lasts, in minutes (5...240).
        public var durationMinutes: Int
        /// Why the patient comes, for the clinician (≤ 1,000 characters).
        public var reason: String
        /// Chosen by the client, unique per booking attempt: a retry with the same id returns
        /// the first result instead of booking twice.
        public var requestID: String

        /// Creates the value from its fields.
        public init(
            token: String, clinicID: String, service: Clinics.Service, startsAt: Timestamp, durationMinutes: Int,
            reason: String, requestID: String
        ) {
            self.token = token
            self.clinicID = clinicID
            self.service = service
            self.startsAt = startsAt
            self.durationMinutes = durationMinutes
            self.reason = reason
            self.requestID = requestID
        }

        public static let schema = MessageSchema(
            "appointments.BookInput",
            [
                .required(1, "token", .string),
                .required(2, "clinicID", .string),
                .required(3, "service", .enumeration(Clinics.Service.schema)),
                .required(4, "startsAt", .timestamp),
                .required(5, "durationMinutes", .int),
                .defaulted(6, "reason", .string, .string("")),
                .required(7, "requestID", .string),
            ])
    }

    /// Names one of the caller's bookings (``Appointments/cancel``, ``Appointments/get``).
    public struct AppointmentRef: WireMessage {
        /// The patient's session token.
        public var token: String
        /// The booking's id.
        public var id: String

        /// Creates the value from its fields.
        public init(token: String, id: String) {
            self.token = token
            self.id = id
        }

        public static let schema = MessageSchema(
            "appointments.AppointmentRef", [.required(1, "token", .string), .required(2, "id", .string)])
    }

    /// The Input of ``Appointments/list``.
    public struct ListInput: WireMessage {
        /// The patient's session token.
        public var token: String
        /// The earliest start to include (inclusive).
        public var from: Timestamp
        /// The latest start to include (exclusive).
        public var to: Timestamp
        /// Whether cancelled bookings are listed too.
        public var includeCancelled: Bool
        /// The page size: the most bookings to return, 1...200 (more is `invalidInput`).
        public var limit: Int
        /// Where to continue: ``AppointmentList/nextCursor`` of the previous page; absent for the first page.
        /// Opaque; a cursor that was altered or made for another list or filter is `invalidInput`.
        public var cursor: String?

        /// Creates the value from its fields.
        public init(
            token: String, from: Timestamp, to: Timestamp, includeCancelled: Bool = false, limit: Int = 50,
            cursor: String? = nil
        ) {
            self.token = token
            self.from = from
            self.to = to
            self.includeCancelled = includeCancelled
            self.limit = limit
            self.cursor = cursor
        }

        public static let schema = MessageSchema(
            "appointments.ListInput",
            [
                .required(1, "token", .string),
                .required(2, "from", .timestamp),
                .required(3, "to", .timestamp),
                .defaulted(4, "includeCancelled", .bool, .bool(false)),
                .defaulted(5, "limit", .int, .int(50)),
                .optional(6, "cursor", .string),
            ])
    }

    // MARK: Outputs

    /// A booking.
    public struct Appointment: WireMessage {
        /// The booking's id.
        public var id: String
        /// The patient's user id.
        public var patientID: String
        /// The clinic's id.
        public var clinicID: String
        /// The clinic's name when booked.
        public var clinicName: String
        /// The service booked.
        public var service: Clinics.Service
        /// When it starts.
        public var startsAt: Timestamp
        /// When it ends.
        public var endsAt: Timestamp
        /// Why the patient comes.
        public var reason: String
        /// Booked or cancelled.
        public var status: Status
        /// When it was booked.
        public var createdAt: Timestamp
        /// Whether the patient's notification about it has been delivered.
        public var notified: Bool

        /// Creates the value from its fields.
        public init(
            id: String, patientID: String, clinicID: String, clinicName: String, service: Clinics.Service,
            startsAt: Timestamp, endsAt: Timestamp, reason: String, status: Status, createdAt: Timestamp,
            notified: Bool
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
            self.notified = notified
        }

        public static let schema = MessageSchema(
            "appointments.Appointment",
            [
                .required(1, "id", .string),
                .required(2, "patientID", .string),
                .required(3, "clinicID", .string),
                .required(4, "clinicName", .string),
                .required(5, "service", .enumeration(Clinics.Service.schema)),
                .required(6, "startsAt", .timestamp),
                .required(7, "endsAt", .timestamp),
                .defaulted(8, "reason", .string, .string("")),
                .required(9, "status", .enumeration(Status.schema)),
                .required(10, "createdAt", .timestamp),
                .defaulted(11, "notified", .bool, .bool(false)),
            ])
    }

    /// Bookings, earliest first.
    public struct AppointmentList: WireMessage {
        /// The bookings, at most the page size asked for.
        public var appointments: [Appointment]
        /// The ``ListInput/cursor`` of the next page; absent on the last page.
        public var nextCursor: String?

        /// Creates the value from its fields.
        public init(appointments: [Appointment], nextCursor: String? = nil) {
            self.appointments = appointments
            self.nextCursor = nextCursor
        }

        public static let schema = MessageSchema(
            "appointments.AppointmentList",
            [.repeated(1, "appointments", .message(Appointment.self)), .optional(2, "nextCursor", .string)])
    }

    /// Where a booking stands.
    public enum Status: WireEnum {
        /// It will happen.
        case booked
        /// The patient cancelled it.
        case cancelled
        /// A status this build does not know.
        case unknown(String)

        public static let knownCases: [Status] = [.booked, .cancelled]
        public static let schema = EnumSchema("appointments.Status", knownCases)
        /// A status this build does not know.
        public init(unknown raw: String) { self = .unknown(raw) }
        public var wireName: String {
            switch self {
            case .booked: "booked"
            case .cancelled: "cancelled"
            case .unknown(let raw): raw
            }
        }
    }
}
