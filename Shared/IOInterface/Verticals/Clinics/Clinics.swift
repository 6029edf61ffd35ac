/// The clinics vertical's contract: the clinic network, where each clinic is, what it
/// offers and when it opens.
///
/// Appointments call ``checkSlot`` so that opening hours and time zones stay with the
/// vertical that owns them; records call ``get`` to check a clinic exists and
/// ``getMany`` to name the clinics of a whole history at once; patients find clinics
/// with ``search`` and ``nearest``. Only admins add clinics (``create``, checked through
/// ``Identity/authenticate``).
public enum Clinics: ServiceContract {
    public static let name = "clinics"
    public static let summary = "Clinics: where they are, the services they offer and their opening hours."

    /// Adds a clinic; the caller's session must belong to an admin.
    public static let create = Operation<CreateInput, Clinic>(
        name, "create", summary: "Add a clinic to the network (admins only).",
        errors: [.invalidInput, .unauthenticated, .permissionDenied])

    /// Looks a clinic up by id.
    public static let get = Operation<GetInput, Clinic>(
        name, "get", summary: "Fetch one clinic by its id.", errors: [.notFound], route: Route("/clinics/{id}"))

    /// Finds clinics by name.
    public static let search = Operation<SearchInput, ClinicList>(
        name, "search", summary: "Find clinics whose name contains a text, ignoring case.",
        errors: [.invalidInput], route: Route("/clinics/search", aliases: ["q": "name"]))

    /// Finds the clinics closest to a point.
    public static let nearest = Operation<NearestInput, NearbyClinics>(
        name, "nearest",
        summary: "List the clinics nearest a point by great-circle distance, closest first, optionally by service.",
        errors: [.invalidInput], route: Route("/clinics/nearest", aliases: ["lat": "latitude", "lon": "longitude"]))

    /// Looks many clinics up at once; unknown ids are simply absent from the answer.
    public static let getMany = Operation<GetManyInput, ClinicList>(
        name, "getMany", summary: "Fetch the clinics with the given ids; unknown ids are left out.",
        errors: [.invalidInput], route: Route("/clinics", aliases: ["id": "ids"]))

    /// Says whether a clinic offers a service and is open for a whole slot, in its own time zone.
    public static let checkSlot = Operation<CheckSlotInput, SlotCheck>(
        name, "checkSlot",
        summary: "Check that a clinic offers a service and is open for the whole of a slot, in its own time zone.",
        errors: [.invalidInput, .notFound], route: Route("/clinics/{clinicID}/slot"))

    public static let operations = [
        create.descriptor, get.descriptor, search.descriptor, nearest.descriptor, getMany.descriptor,
        checkSlot.descriptor,
    ]

    // MARK: Inputs

    /// The Input of ``Clinics/create``.
    public struct CreateInput: WireMessage {
        /// The caller's session token from ``Identity/login``; its user must have the `admin` role.
        public var token: String
        /// The clinic's name as patients see it.
        public var name: String
        /// The postal address, one line.
        public var address: String
        /// WGS 84 latitude in degrees, -90...90.
        public var latitude: Double
        /// WGS 84 longitude in degrees, -180...180.
        public var longitude: Double
        /// The IANA time zone the opening hours are in, e.g. `Europe/London`.
        public var timeZone: String
        /// A phone number for patients, when the clinic has one.
        public var phone: String?
        /// What the clinic offers.
        public var services: [Service]
        /// When the clinic opens, one entry per opening period of a weekday.
        public var hours: [OpeningHours]

        /// Creates the value from its fields.
        public init(
            token: String, name: String, address: String, latitude: Double, longitude: Double, timeZone: String,
            phone: String? = nil, services: [Service], hours: [OpeningHours]
        ) {
            self.token = token
            self.name = name
            self.address = address
            self.latitude = latitude
            self.longitude = longitude
            self.timeZone = timeZone
            self.phone = phone
            self.services = services
            self.hours = hours
        }

        public static let schema = MessageSchema(
            "clinics.CreateInput",
            [
                .required(1, "token", .string),
                .required(2, "name", .string),
                .required(3, "address", .string),
                .required(4, "latitude", .double),
                .required(5, "longitude", .double),
                .required(6, "timeZone", .string),
                .optional(7, "phone", .string),
                .repeated(8, "services", .enumeration(Service.schema)),
                .repeated(9, "hours", .message(OpeningHours.self)),
            ])
    }

    /// The Input of ``Clinics/get``.
    public struct GetInput: WireMessage {
        /// The clinic's id, from ``Clinic/id``.
        public var id: String

        /// Creates the value from its fields.
        public init(id: String) {
            self.id = id
        }

        public static let schema = MessageSchema("clinics.GetInput", [.required(1, "id", .string)])
    }

    /// The Input of ``Clinics/search``.
    public struct SearchInput: WireMessage {
        /// Text the clinic's name must contain, ignoring case; empty matches every clinic.
        public var name: String
        /// The page size: the most clinics to return, 1...100 (more is `invalidInput`).
        public var limit: Int
        /// Where to continue: ``ClinicList/nextCursor`` of the previous page; absent for the first page.
        /// Opaque; a cursor that was altered or made for another list or filter is `invalidInput`.
        public var cursor: String?

        /// Creates the value from its fields.
        public init(name: String, limit: Int = 20, cursor: String? = nil) {
            self.name = name
            self.limit = limit
            self.cursor = cursor
        }

        public static let schema = MessageSchema(
            "clinics.SearchInput",
            [.required(1, "name", .string), .defaulted(2, "limit", .int, .int(20)), .optional(3, "cursor", .string)])
    }

    /// The Input of ``Clinics/nearest``.
    public struct NearestInput: WireMessage {
        /// WGS 84 latitude of the point, in degrees.
        public var latitude: Double
        /// WGS 84 longitude of the point, in degrees.
        public var longitude: Double
        /// The most clinics to return, 1...100.
        public var limit: Int
        /// Only clinics offering this service, when given.
        public var service: Service?

        /// Creates the value from its fields.
        public init(latitude: Double, longitude: Double, limit: Int = 5, service: Service? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.limit = limit
            self.service = service
        }

        public static let schema = MessageSchema(
            "clinics.NearestInput",
            [
                .required(1, "latitude", .double),
                .required(2, "longitude", .double),
                .defaulted(3, "limit", .int, .int(5)),
                .optional(4, "service", .enumeration(Service.schema)),
            ])
    }

    /// The Input of ``Clinics/getMany``.
    public struct GetManyInput: WireMessage {
        /// The clinics' ids, at most 500; duplicates are answered once.
        public var ids: [String]

        /// Creates the value from its fields.
        public init(ids: [String]) {
            self.ids = ids
        }

        public static let schema = MessageSchema("clinics.GetManyInput", [.repeated(1, "ids", .string)])
    }

    /// The Input of ``Clinics/checkSlot``.
    public struct CheckSlotInput: WireMessage {
        /// The clinic's id, from ``Clinic/id``.
        public var clinicID: String
        /// The service the slot is for.
        public var service: Service
        /// When the slot starts.
        public var startsAt: Timestamp
        /// When the slot ends; after ``startsAt``.
        public var endsAt: Timestamp

        /// Creates the value from its fields.
        public init(clinicID: String, service: Service, startsAt: Timestamp, endsAt: Timestamp) {
            self.clinicID = clinicID
            self.service = service
            self.startsAt = startsAt
            self.endsAt = endsAt
        }

        public static let schema = MessageSchema(
            "clinics.CheckSlotInput",
            [
                .required(1, "clinicID", .string),
                .required(2, "service", .enumeration(Service.schema)),
                .required(3, "startsAt", .timestamp),
                .required(4, "endsAt", .timestamp),
            ])
    }

    // MARK: Outputs

    /// A clinic of the network.
    public struct Clinic: WireMessage {
        /// The clinic's stable id.
        public var id: String
        /// The clinic's name as patients see it.
        public var name: String
        /// The postal address, one line.
        public var address: String
        /// WGS 84 latitude in degrees.
        public var latitude: Double
        /// WGS 84 longitude in degrees.
        public var longitude: Double
        /// The IANA time zone the opening hours are in, e.g. `Europe/London`.
        public var timeZone: String
        /// A phone number for patients, when the clinic has one.
        public var phone: String?
        /// What the clinic offers.
        public var services: [Service]
        /// When the clinic opens, in its own time zone.
        public var hours: [OpeningHours]
        /// When the clinic was added.
        public var createdAt: Timestamp

        /// Creates the value from its fields.
        public init(
            id: String, name: String, address: String, latitude: Double, longitude: Double, timeZone: String,
            phone: String? = nil, services: [Service], hours: [OpeningHours], createdAt: Timestamp
        ) {
            self.id = id
            self.name = name
            self.address = address
            self.latitude = latitude
            self.longitude = longitude
            self.timeZone = timeZone
            self.phone = phone
            self.services = services
            self.hours = hours
            self.createdAt = createdAt
        }

        public static let schema = MessageSchema(
            "clinics.Clinic",
            [
                .required(1, "id", .string),
                .required(2, "name", .string),
                .required(3, "address", .string),
                .required(4, "latitude", .double),
                .required(5, "longitude", .double),
                .required(6, "timeZone", .string),
                .optional(7, "phone", .string),
                .repeated(8, "services", .enumeration(Service.schema)),
                .repeated(9, "hours", .message(OpeningHours.self)),
                .required(10, "createdAt", .timestamp),
            ])
    }

    /// The answer of ``Clinics/search`` (matching clinics, by name) and ``Clinics/getMany``.
    public struct ClinicList: WireMessage {
        /// The clinics, at most the requested limit.
        public var clinics: [Clinic]
        /// For ``Clinics/search``: the ``SearchInput/cursor`` of the next page; absent on the last
        /// page, and always from ``Clinics/getMany``.
        public var nextCursor: String?

        /// Creates the value from its fields.
        public init(clinics: [Clinic], nextCursor: String? = nil) {
            self.clinics = clinics
            self.nextCursor = nextCursor
        }

        public static let schema = MessageSchema(
            "clinics.ClinicList",
            [.repeated(1, "clinics", .message(Clinic.self)), .optional(2, "nextCursor", .string)])
    }

    /// One answer of ``Clinics/nearest``: a clinic and how far it is.
    public struct NearbyClinic: WireMessage {
        /// The clinic.
        public var clinic: Clinic
        /// The great-circle distance from the requested point, in metres.
        public var distanceMetres: Double

        /// Creates the value from its fields.
        public init(clinic: Clinic, distanceMetres: Double) {
            self.clinic = clinic
            self.distanceMetres = distanceMetres
        }

        public static let schema = MessageSchema(
            "clinics.NearbyClinic",
            [.required(1, "clinic", .message(Clinic.self)), .required(2, "distanceMetres", .double)])
    }

    /// The answer of ``Clinics/nearest``: the closest clinics, closest first.
    public struct NearbyClinics: WireMessage {
        /// The clinics with their distances, at most the requested limit.
        public var clinics: [NearbyClinic]

        /// Creates the value from its fields.
        public init(clinics: [NearbyClinic]) {
            self.clinics = clinics
        }

        public static let schema = MessageSchema(
            "clinics.NearbyClinics", [.repeated(1, "clinics", .message(NearbyClinic.self))])
    }

    /// The answer of ``Clinics/checkSlot``: whether the slot can be booked at this clinic, and why not.
    public struct SlotCheck: WireMessage {
        /// The clinic checked.
        public var clinicID: String
        /// The clinic's name, for messages to patients.
        public var clinicName: String
        /// Whether the clinic offers the requested service.
        public var offersService: Bool
        /// Whether the clinic is open for the whole slot, in its own time zone; a slot that
        /// crosses closing time or local midnight is not.
        public var isOpen: Bool
        /// Why the slot cannot be booked, for a person; empty when it can.
        public var reason: String

        /// Creates the value from its fields.
        public init(clinicID: String, clinicName: String, offersService: Bool, isOpen: Bool, reason: String) {
            self.clinicID = clinicID
            self.clinicName = clinicName
            self.offersService = offersService
            self.isOpen = isOpen
            self.reason = reason
        }

        public static let schema = MessageSchema(
            "clinics.SlotCheck",
            [
                .required(1, "clinicID", .string),
                .required(2, "clinicName", .string),
                .required(3, "offersService", .bool),
                .required(4, "isOpen", .bool),
                .required(5, "reason", .string),
            ])
    }

    // MARK: Values

    /// One opening period on one weekday, in the clinic's own time zone.
    ///
    /// Times are minutes after local midnight, `0 <= opens < closes <= 1440`; a clinic
    /// that closes for lunch has two periods on that day.
    public struct OpeningHours: WireMessage, Hashable {
        /// The day.
        public var weekday: Weekday
        /// When the clinic opens, in minutes after local midnight (09:30 is 570).
        public var opens: Int
        /// When the clinic closes, in minutes after local midnight (17:00 is 1020).
        public var closes: Int

        /// Creates the value from its fields.
        public init(weekday: Weekday, opens: Int, closes: Int) {
            self.weekday = weekday
            self.opens = opens
            self.closes = closes
        }

        public static let schema = MessageSchema(
            "clinics.OpeningHours",
            [
                .required(1, "weekday", .enumeration(Weekday.schema)),
                .required(2, "opens", .int),
                .required(3, "closes", .int),
            ])
    }

    /// A service a clinic offers.
    public enum Service: WireEnum {
        /// General practice: a family doctor.
        case gp
        /// Dispensing prescriptions.
        case pharmacy
        /// Dental care.
        case dentist
        /// Physiotherapy.
        case physiotherapy
        /// Eye tests and glasses.
        case optician
        /// Vaccinations.
        case vaccination
        /// Blood tests.
        case bloodTest
        /// A service this build does not know.
        case unknown(String)

        public static let knownCases: [Service] = [
            .gp, .pharmacy, .dentist, .physiotherapy, .optician, .vaccination, .bloodTest,
        ]
        public static let schema = EnumSchema("clinics.Service", knownCases)
        /// Creates the value from its fields.
        public init(unknown raw: String) { self = .unknown(raw) }
        public var wireName: String {
            switch self {
            case .gp: "gp"
            case .pharmacy: "pharmacy"
            case .dentist: "dentist"
            case .physiotherapy: "physiotherapy"
            case .optician: "optician"
            case .vaccination: "vaccination"
            case .bloodTest: "bloodTest"
            case .unknown(let raw): raw
            }
        }
    }

    /// A day of the week.
    public enum Weekday: WireEnum {
        /// The seven days, Monday first as in ISO 8601.
        case monday, tuesday, wednesday, thursday, friday, saturday, sunday
        /// A day this build does not know.
        case unknown(String)

        public static let knownCases: [Weekday] = [
            .monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday,
        ]
        public static let schema = EnumSchema("clinics.Weekday", knownCases)
        /// Creates the value from its fields.
        public init(unknown raw: String) { self = .unknown(raw) }
        public var wireName: String {
            switch self {
            case .monday: "monday"
            case .tuesday: "tuesday"
            case .wednesday: "wednesday"
            case .thursday: "thursday"
            case .friday: "friday"
            case .saturday: "saturday"
            case .sunday: "sunday"
            case .unknown(let raw): raw
            }
        }
    }
}
