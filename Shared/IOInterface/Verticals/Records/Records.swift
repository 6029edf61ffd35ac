/// The records vertical's contract: each patient's clinical history (the seeds'
/// ClinicalRecords), which uses clinics (the seeds' Maps) for clinic names and nearby pharmacies.
///
/// Every operation takes the caller's session token and acts on the caller's own
/// entries only; records checks the token through ``Identity/authenticate``.
public enum Records: ServiceContract {
    public static let name = "records"
    public static let summary = "Each patient's clinical history: notes, allergies, medications and conditions."

    /// Adds an entry to the caller's history.
    public static let addEntry = Operation<AddEntryInput, Entry>(
        name, "addEntry", summary: "Add a note, allergy, medication or condition to the caller's history.",
        errors: [.invalidInput, .unauthenticated, .unavailable])

    /// The caller's history, newest first, with clinic names.
    public static let history = Operation<HistoryInput, History>(
        name, "history", summary: "List the caller's entries, newest first, with the name of each entry's clinic.",
        errors: [.invalidInput, .unauthenticated], route: Route("/records"))

    /// Pharmacies near a point, through ``Clinics/nearest``.
    public static let nearbyPharmacies = Operation<NearbyPharmaciesInput, Clinics.NearbyClinics>(
        name, "nearbyPharmacies", summary: "List the pharmacies nearest a point, closest first.",
        errors: [.invalidInput, .unauthenticated, .unavailable],
        route: Route("/pharmacies/nearest", aliases: ["lat": "latitude", "lon": "longitude"]))

    /// Deletes one of the caller's entries.
    public static let deleteEntry = Operation<DeleteEntryInput, Empty>(
        name, "deleteEntry", summary: "Delete one of the caller's own entries.",
        errors: [.unauthenticated, .permissionDenied, .notFound])

    public static let operations = [
        addEntry.descriptor, history.descriptor, nearbyPharmacies.descriptor, deleteEntry.descriptor,
    ]

    // MARK: Inputs

    /// The Input of ``Records/addEntry``.
    public struct AddEntryInput: WireMessage {
        /// The caller's session token from ``Identity/login``.
        public var token: String
        /// What the entry records.
        public var kind: EntryKind
        /// The entry itself: 1 to 10,000 characters.
        public var text: String
        /// The clinic the entry came from, when there is one; it must exist (``Clinics/get``).
        public var clinicID: String?

        /// Creates the value from its fields.
        public init(token: String, kind: EntryKind, text: String, clinicID: String? = nil) {
            self.token = token
            self.kind = kind
            self.text = text
            self.clinicID = clinicID
        }

        public static let schema = MessageSchema(
            "records.AddEntryInput",
            [
                .required(1, "token", .string),
                .required(2, "kind", .enumeration(EntryKind.schema)),
                .required(3, "text", .string),
                .optional(4, "clinicID", .string),
            ])
    }

    /// The Input of ``Records/history``.
    public struct HistoryInput: WireMessage {
        /// The caller's session token from ``Identity/login``.
        public var token: String
        /// Only entries of this kind, when given.
        public var kind: EntryKind?
        /// The page size: the most entries to return, 1...200 (more is `invalidInput`).
        public var limit: Int
        /// Where to continue: ``History/nextCursor`` of the previous page; absent for the first page.
        /// Opaque; a cursor that was altered or made for another list or filter is `invalidInput`.
        public var cursor: String?

        /// Creates the value from its fields.
        public init(token: String, kind: EntryKind? = nil, limit: Int = 50, cursor: String? = nil) {
            self.token = token
            self.kind = kind
            self.limit = limit
            self.cursor = cursor
        }

        public static let schema = MessageSchema(
            "records.HistoryInput",
            [
                .required(1, "token", .string), .optional(2, "kind", .enumeration(EntryKind.schema)),
                .defaulted(3, "limit", .int, .int(50)), .optional(4, "cursor", .string),
            ])
    }

    /// The Input of ``Records/nearbyPharmacies``.
    public struct NearbyPharmaciesInput: WireMessage {
        /// The caller's session token from ``Identity/login``.
        public var token: String
        /// WGS 84 latitude of the point, in degrees.
        public var latitude: Double
        /// WGS 84 longitude of the point, in degrees.
        public var longitude: Double
        /// The most pharmacies to return, 1...100.
        public var limit: Int

        /// Creates the value from its fields.
        public init(token: String, latitude: Double, longitude: Double, limit: Int = 5) {
            self.token = token
            self.latitude = latitude
            self.longitude = longitude
            self.limit = limit
        }

        public static let schema = MessageSchema(
            "records.NearbyPharmaciesInput",
            [
                .required(1, "token", .string),
                .required(2, "latitude", .double),
                .required(3, "longitude", .double),
                .defaulted(4, "limit", .int, .int(5)),
            ])
    }

    /// The Input of ``Records/deleteEntry``.
    public struct DeleteEntryInput: WireMessage {
        /// The caller's session token from ``Identity/login``.
        public var token: String
        /// The entry's id, from ``Entry/id``.
        public var id: String

        /// Creates the value from its fields.
        public init(token: String, id: String) {
            self.token = token
            self.id = id
        }

        public static let schema = MessageSchema(
            "records.DeleteEntryInput", [.required(1, "token", .string), .required(2, "id", .string)])
    }

    // MARK: Outputs

    /// One entry of a patient's history.
    public struct Entry: WireMessage {
        /// The entry's stable id.
        public var id: String
        /// The patient whose history it belongs to.
        public var userID: String
        /// What the entry records.
        public var kind: EntryKind
        /// The entry itself.
        public var text: String
        /// The clinic the entry came from, when there is one.
        public var clinicID: String?
        /// The clinic's name, when the entry has a clinic and clinics could name it.
        public var clinicName: String?
        /// When the entry was added.
        public var createdAt: Timestamp

        /// Creates the value from its fields.
        public init(
            id: String, userID: String, kind: EntryKind, text: String, clinicID: String? = nil,
            clinicName: String? = nil, createdAt: Timestamp
        ) {
            self.id = id
            self.userID = userID
            self.kind = kind
            self.text = text
            self.clinicID = clinicID
            self.clinicName = clinicName
            self.createdAt = createdAt
        }

        public static let schema = MessageSchema(
            "records.Entry",
            [
                .required(1, "id", .string),
                .required(2, "userID", .string),
                .required(3, "kind", .enumeration(EntryKind.schema)),
                .required(4, "text", .string),
                .optional(5, "clinicID", .string),
                .optional(6, "clinicName", .string),
                .required(7, "createdAt", .timestamp),
            ])
    }

    /// The answer of ``Records/history``.
    public struct History: WireMessage {
        /// The caller's entries, newest first.
        public var entries: [Entry]
        /// Whether clinics named the entries' clinics. When clinics is unavailable the
        /// history is still served, since it is the caller's own data, with every
        /// ``Entry/clinicName`` absent and this `false`.
        public var clinicNamesResolved: Bool
        /// The ``HistoryInput/cursor`` of the next page; absent on the last page.
        public var nextCursor: String?

        /// Creates the value from its fields.
        public init(entries: [Entry], clinicNamesResolved: Bool, nextCursor: String? = nil) {
            self.entries = entries
            self.clinicNamesResolved = clinicNamesResolved
            self.nextCursor = nextCursor
        }

        public static let schema = MessageSchema(
            "records.History",
            [
                .repeated(1, "entries", .message(Entry.self)), .required(2, "clinicNamesResolved", .bool),
                .optional(3, "nextCursor", .string),
            ])
    }

    // MARK: Values

    /// What an entry records.
    public enum EntryKind: WireEnum {
        /// Free text from the patient or a clinician.
        case note
        /// Something the patient reacts to.
        case allergy
        /// A medicine the patient takes.
        case medication
        /// A diagnosed condition.
        case condition
        /// A kind this build does not know.
        case unknown(String)

        public static let knownCases: [EntryKind] = [.note, .allergy, .medication, .condition]
        public static let schema = EnumSchema("records.EntryKind", knownCases)
        /// The value for a name no known case carries.
        public init(unknown raw: String) { self = .unknown(raw) }
        public var wireName: String {
            switch self {
            case .note: "note"
            case .allergy: "allergy"
            case .medication: "medication"
            case .condition: "condition"
            case .unknown(let raw): raw
            }
        }
    }
}
