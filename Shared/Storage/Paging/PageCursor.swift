import VerticalsWire

/// A position in a keyset-paginated list: the sort key of the last item a page returned.
///
/// The next page is `WHERE (k1, k2) > (?, ?) ORDER BY k1, k2 LIMIT n` (or `<` for a
/// descending list), never `OFFSET`: rows inserted or deleted before the position do not
/// shift it, so paging returns every item present throughout exactly once, in order.
///
/// Callers see the cursor only as an opaque string (``encoded(scope:)``): base64url of a
/// version byte, the keys, and a 64-bit check over the keys and the *scope* — what the list
/// was asked for (operation, caller, filters). A cursor that was altered, truncated, or made
/// for another list does not decode (``decode(_:scope:keyCount:)`` throws
/// ``PageCursorError``, which each vertical returns as a typed `invalidInput`). The check is
/// not a secret: forging a cursor only moves a caller within a list it may read anyway.
///
/// ```swift
/// let scope = "notifications.inbox|\(userID)|\(unreadOnly)"
/// let after = try PageCursor.decode(cursor, scope: scope, keyCount: 2) {
///     NotificationsFailure.invalid(field: "cursor", reason: "the cursor \($0)")
/// }
/// // … fetch limit + 1 rows after `after` …
/// let page = PageCursor.page(rows, limit: limit, scope: scope) { [.integer($0.createdAt), .integer($0.rowID)] }
/// ```
public struct PageCursor: Sendable, Equatable {
    /// One column of a sort key.
    public enum Key: Sendable, Equatable {
        /// An integer column (times in microseconds, rowids).
        case integer(Int64)
        /// A text column (ids, folded names).
        case text(String)
    }

    /// The sort key of the last item returned, in `ORDER BY` order.
    public var keys: [Key]

    /// A cursor after the item whose sort key is `keys`.
    public init(_ keys: [Key]) {
        self.keys = keys
    }

    /// The format version written first; a cursor of another version is refused.
    static let version: UInt8 = 1

    /// The opaque text form, bound to `scope`.
    public func encoded(scope: String) -> String {
        var bytes: [UInt8] = [Self.version, UInt8(truncatingIfNeeded: keys.count)]
        for key in keys {
            switch key {
            case .integer(let value):
                bytes.append(0)
                withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
            case .text(let value):
                bytes.append(1)
                let utf8 = Array(value.utf8)
                Self.appendLength(utf8.count, to: &bytes)
                bytes.append(contentsOf: utf8)
            }
        }
        withUnsafeBytes(of: Self.check(bytes, scope: scope).bigEndian) { bytes.append(contentsOf: $0) }
        return Base64.url.encode(bytes)
    }

    /// The cursor `text` encodes for `scope`, with exactly `keyCount` keys.
    public static func decode(_ text: String, scope: String, keyCount: Int) throws(PageCursorError) -> PageCursor {
        guard text.utf8.count <= 4096, let bytes = Base64.url.decode(text), bytes.count >= 10 else {
            throw PageCursorError(.malformed, "is not a cursor this list returned")
        }
        let body = bytes[..<(bytes.count - 8)]
        var check: UInt64 = 0
        for byte in bytes[(bytes.count - 8)...] { check = check << 8 | UInt64(byte) }
        guard check == Self.check(body, scope: scope) else {
            throw PageCursorError(
                .altered, "was altered, or belongs to another list or filter: start again without a cursor")
        }
        guard body[body.startIndex] == version else { throw PageCursorError(.unknownVersion, "has an unknown version") }
        var reader = body.dropFirst(2)
        var keys: [Key] = []
        while let kind = reader.popFirst() {
            switch kind {
            case 0:
                guard reader.count >= 8 else { throw PageCursorError(.malformed, "is truncated") }
                var value: UInt64 = 0
                for byte in reader.prefix(8) { value = value << 8 | UInt64(byte) }
                reader = reader.dropFirst(8)
                keys.append(.integer(Int64(bitPattern: value)))
            case 1:
                guard let length = readLength(&reader), reader.count >= length else {
                    throw PageCursorError(.malformed, "is truncated")
                }
                keys.append(.text(String(decoding: reader.prefix(length), as: UTF8.self)))
                reader = reader.dropFirst(length)
            default:
                throw PageCursorError(.malformed, "holds an unknown key type")
            }
        }
        guard keys.count == keyCount, Int(body[body.startIndex + 1]) == keyCount else {
            throw PageCursorError(.wrongList, "does not fit this list")
        }
        return PageCursor(keys)
    }

    /// The position a request's optional `cursor` names in the list `scope` names: nil without one
    /// (the first page), else ``decode(_:scope:keyCount:)``'s cursor; a cursor that does not decode
    /// is refused with `refusal(reason)`, the vertical's own typed error (its `invalidInput` on the
    /// cursor), `reason` saying what is wrong with it (``PageCursorError/reason``).
    ///
    /// ```swift
    /// let after = try PageCursor.decode(input.cursor, scope: scope, keyCount: 2) {
    ///     NotificationsFailure.invalid(field: "cursor", reason: "the cursor \($0)")
    /// }
    /// ```
    public static func decode<Refusal: Error>(
        _ cursor: String?, scope: String, keyCount: Int, refusal: (_ reason: String) -> Refusal
    ) throws(Refusal) -> PageCursor? {
        guard let cursor else { return nil }
        do {
            return try decode(cursor, scope: scope, keyCount: keyCount)
        } catch {
            throw refusal(error.reason)
        }
    }

    /// The first `limit` of `rows` (fetched as `limit + 1`, to learn whether more follow) and,
    /// when more follow, the cursor after the last one returned.
    public static func page<Item>(
        _ rows: [Item], limit: Int, scope: String, key: (Item) -> [Key]
    ) -> (items: [Item], nextCursor: String?) {
        guard rows.count > limit, limit > 0 else { return (rows, nil) }
        let items = Array(rows.prefix(limit))
        return (items, PageCursor(key(items[limit - 1])).encoded(scope: scope))
    }

    private static func appendLength(_ length: Int, to bytes: inout [UInt8]) {
        var rest = UInt64(length)
        repeat {
            bytes.append(UInt8(rest & 0x7F) | (rest >= 0x80 ? 0x80 : 0))
            rest >>= 7
        } while rest > 0
    }

    private static func readLength(_ reader: inout ArraySlice<UInt8>) -> Int? {
        var value = 0
        for shift in stride(from: 0, to: 28, by: 7) {
            guard let byte = reader.popFirst() else { return nil }
            value |= Int(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
        }
        return nil
    }

    /// FNV-1a 64 over the scope, a separator, and the cursor's bytes.
    private static func check(_ bytes: some Collection<UInt8>, scope: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in scope.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        hash = (hash ^ 0xFF) &* 0x100_0000_01b3
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}

/// Why a cursor was refused; `reason` completes "the cursor …".
///
/// Compare ``code`` with the static members of ``Code`` (new codes may be added); the reason is
/// also the detail `reason`.
public struct PageCursorError: StoredCodedError {
    /// What kind of problem it is.
    public typealias Code = ErrorKind<PageCursorError>

    /// Its code, its message (`the cursor <reason>`) and the detail `reason`.
    public let storage: CodedErrorStorage<PageCursorError>

    /// The error `storage` describes.
    public init(storage: CodedErrorStorage<PageCursorError>) { self.storage = storage }

    init(_ code: Code, _ reason: String) {
        self.init(storage: CodedErrorStorage(code, "the cursor \(reason)", details: [ErrorDetail("reason", reason)]))
    }

    /// What is wrong with the cursor, as the end of a sentence starting "the cursor" (the
    /// message, for an error made without the detail `reason`).
    public var reason: String { detail("reason") ?? message }
}

extension ErrorKind where Domain == PageCursorError {
    /// The text is not a cursor: not base64url, truncated, or holding an unknown key type.
    public static var malformed: Self { Self("malformed") }
    /// The check does not match: the cursor was changed, or another list or filter made it.
    public static var altered: Self { Self("altered") }
    /// The cursor is of a version this build does not read.
    public static var unknownVersion: Self { Self("unknownVersion") }
    /// The cursor holds another number of keys than this list sorts by.
    public static var wrongList: Self { Self("wrongList") }
}
