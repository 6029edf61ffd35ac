import FoundationEssentials
import VerticalsWire

/// A URL taken apart for routing: its path segments and query parameters, percent-decoded.
///
/// Accepts `verticals://clinics/nearest?lat=51.5` (the host is the first path segment) or a
/// bare absolute path, `/clinics/nearest?lat=51.5`.
public struct RouteURL: Sendable, Equatable {
    /// The decoded path segments, e.g. `["clinics", "nearest"]`.
    public let segments: [String]
    /// The decoded query parameters, in order, repeats included; a bare `?flag` has an empty value.
    public let query: [(name: String, value: String)]

    /// The path as `/a/b`, for messages.
    public var path: String { "/" + segments.joined(separator: "/") }

    /// The URL scheme `open` accepts.
    public static let scheme = "verticals"

    /// Parses `text`, throwing ``RouteError/malformedURL(_:reason:)`` when it is not one.
    public init(_ text: String) throws(RouteError) {
        if let bad = Self.badEscape(in: text) {
            throw .malformedURL(text, reason: "\"\(bad)\" is not a percent-escape (% and two hex digits)")
        }
        guard let components = URLComponents(string: text) else {
            throw .malformedURL(
                text, reason: "it does not parse as a URL (RFC 3986); percent-encode spaces and reserved characters")
        }
        var path: String
        if let scheme = components.scheme {
            guard scheme == Self.scheme else {
                throw .malformedURL(text, reason: "the scheme must be \(Self.scheme)://, not \(scheme)://")
            }
            guard let host = components.percentEncodedHost, !host.isEmpty else {
                throw .malformedURL(text, reason: "it names no vertical after \(Self.scheme)://")
            }
            path = "/" + host + components.percentEncodedPath
        } else {
            path = components.percentEncodedPath
            guard path.hasPrefix("/") else {
                throw .malformedURL(
                    text, reason: "a route is \(Self.scheme)://VERTICAL/… or an absolute path /VERTICAL/…")
            }
        }
        if components.fragment != nil {
            throw .malformedURL(text, reason: "a fragment (#…) means nothing to a route")
        }
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        var segments: [String] = []
        for part in path.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard !part.isEmpty else { throw .malformedURL(text, reason: "the path has an empty segment") }
            guard let decoded = Self.percentDecoded(part) else {
                throw .malformedURL(text, reason: "the segment \"\(part)\" has a bad percent-escape")
            }
            segments.append(decoded)
        }
        self.segments = segments
        self.query = (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }
    }

    /// The first `%` not followed by two hex digits, with what follows it, if any.
    package static func badEscape(in text: String) -> String? {
        let bytes = Array(text.utf8)
        for index in bytes.indices where bytes[index] == UInt8(ascii: "%") {
            let digits = bytes[(index + 1)..<min(index + 3, bytes.count)]
            if digits.count < 2 || !digits.allSatisfy({ hexDigitValue($0) != nil }) {
                return String(decoding: bytes[index..<min(index + 3, bytes.count)], as: UTF8.self)
            }
        }
        return nil
    }

    public static func == (lhs: RouteURL, rhs: RouteURL) -> Bool {
        lhs.segments == rhs.segments && lhs.query.elementsEqual(rhs.query) { $0 == $1 }
    }

    /// `text` with each `%XX` replaced by its byte, as UTF-8; nil for a bad escape or bytes that
    /// are not UTF-8 (what Foundation's `removingPercentEncoding` does, without Foundation).
    package static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var rest = text.utf8[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = rest.popFirst().flatMap(hexDigitValue), let low = rest.popFirst().flatMap(hexDigitValue)
            else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
