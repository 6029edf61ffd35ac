import VerticalsContract

/// The clinics vertical's contract: the clinic network, where each clinic is, what it
/// offers and when it opens.
///
/// Appointments call ``checkSlot`` so that opening hours and time zones stay with the
/// vertical that owns them; records call ``get`` to check a clinic exists and
/// ``getMany`` to name the clinics of a whole history at once; patients find clinics
/// with ``search`` and ``nearest``. Only admins add clinics (``create``, checked through
/// ``Identity/authenticate``).
///
/// Its operations are here; its messages and enumerations are declared in `clinics.vcontract`
/// beside this file, from which VerticalsContractPlugin generates their Swift (docs/CONTRACTS.md).
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
}
