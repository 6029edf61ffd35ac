import VerticalsContract
import VerticalsWire

/// The records vertical's contract: each patient's clinical history (the seeds'
/// ClinicalRecords), which uses clinics (the seeds' Maps) for clinic names and nearby pharmacies.
///
/// Every operation takes the caller's session token and acts on the caller's own
/// entries only; records checks the token through ``Identity/authenticate``.
///
/// Its operations are here; its messages and enumerations are declared in `records.vcontract`
/// beside this file, from which VerticalsContractPlugin generates their Swift (docs/CONTRACTS.md).
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
        route: Route("/records/pharmacies/nearest", aliases: ["lat": "latitude", "lon": "longitude"]))

    /// Deletes one of the caller's entries.
    public static let deleteEntry = Operation<DeleteEntryInput, Empty>(
        name, "deleteEntry", summary: "Delete one of the caller's own entries.",
        errors: [.unauthenticated, .permissionDenied, .notFound])

    public static let operations = [
        addEntry.descriptor, history.descriptor, nearbyPharmacies.descriptor, deleteEntry.descriptor,
    ]
}
