/// A login e-mail address in its one normalized form: trimmed and lower-cased, so that
/// `" Ada@Example.org "` and `"ada@example.org"` name the same account.
///
/// The check is about shape, not deliverability: one `@`, a non-empty local part of at most 64
/// bytes, a domain with a dot and no empty labels, no spaces, at most 254 bytes in all (RFC 5321
/// counts octets). Nothing longer than ``maximumRawBytes`` is even trimmed.
package struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The normalized address.
    package let value: String

    /// The most UTF-8 bytes an address may have as sent, before it is trimmed and lower-cased:
    /// the contract's bound on every e-mail field (its default, 4096).
    package static let maximumRawBytes = 4096

    /// Normalizes `raw`; `nil` when it does not have the shape of an e-mail address.
    package init?(_ raw: String) {
        guard raw.utf8.count <= Self.maximumRawBytes else { return nil }
        let normalized = raw.trimmedWhitespace.lowercased()
        guard normalized.utf8.count <= 254, !normalized.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            return nil
        }
        let parts = normalized.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].utf8.count <= 64 else { return nil }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }) else { return nil }
        value = normalized
    }

    /// Wraps an address already normalized (read back from the store).
    init(normalized: String) {
        value = normalized
    }

    package var description: String { value }
}

extension String {
    /// The string without leading and trailing white space (spaces, tabs, new lines).
    var trimmedWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
