import VerticalsWire

/// An error that knows what a caller over the wire sees for it: its code, message and
/// details as a `ServiceError`.
///
/// A vertical's domain error conforms (as Hummingbird's `HTTPResponseError` and Vapor's
/// `AbortError` do for HTTP), and the ``Router`` turns any thrown one into its wire form in
/// one place, whether the request came over a socket or ``Router/serveInProcess(_:_:context:)``.
/// A handler never wraps its use case in a `do`/`catch` of its own.
///
/// ```swift
/// extension BookingError: ServiceErrorConvertible {
///     public var serviceError: ServiceError {
///         switch self {
///         case .slotFull: ServiceError(.conflict, "that slot is fully booked at this clinic; pick another time")
///         // …
///         }
///     }
/// }
/// ```
public protocol ServiceErrorConvertible: Error {
    /// The error a caller receives: a code to branch on, a message for a person, details for a program.
    var serviceError: ServiceError { get }
}

/// A ``ServiceError`` is its own wire form: another vertical's refusal passes through unchanged.
extension ServiceError: ServiceErrorConvertible {
    /// `self`.
    public var serviceError: ServiceError { self }
}
