import VerticalsContract

/// The appointments vertical's contract: patients' bookings at clinics.
///
/// Booking checks the caller's token with ``Identity/authenticate``, the clinic, its
/// service and its opening hours with ``Clinics/checkSlot``, stores the booking durably,
/// then tells the patient through ``Notifications`` (from an outbox, so a notification
/// is never lost when notifications is down, and never sent twice).
///
/// Its operations are here; its messages and enumerations are declared in `appointments.vcontract`
/// beside this file, from which VerticalsContractPlugin generates their Swift (docs/CONTRACTS.md).
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
}
