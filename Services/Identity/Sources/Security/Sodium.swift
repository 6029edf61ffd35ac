import CSodium

/// The one place identity starts libsodium. `sodium_init()` must run once before any other
/// libsodium call; it is itself thread-safe and idempotent, and a Swift `static let` runs its
/// initializer exactly once (under `swift_once`), so every entry point just reads ``ready``.
enum Sodium {
    /// Initializes libsodium on first use; fails only when the system has no usable entropy source.
    static func ensureReady() throws {
        guard ready else { throw SodiumError(message: "libsodium could not initialize (sodium_init failed)") }
    }

    private static let ready: Bool = sodium_init() >= 0

    /// `bytes` as lower-case hexadecimal.
    static func hex(_ bytes: [UInt8]) -> String {
        var text = [CChar](repeating: 0, count: bytes.count * 2 + 1)
        _ = sodium_bin2hex(&text, text.count, bytes, bytes.count)
        return string(text)
    }

    /// `bytes` in base64url without padding (RFC 4648 section 5): safe in URLs, headers and JSON.
    static func base64URL(_ bytes: [UInt8]) -> String {
        let variant = Int32(sodium_base64_VARIANT_URLSAFE_NO_PADDING)
        var text = [CChar](repeating: 0, count: sodium_base64_encoded_len(bytes.count, variant))
        _ = sodium_bin2base64(&text, text.count, bytes, bytes.count, variant)
        return string(text)
    }

    /// The text of a NUL-terminated C buffer libsodium filled.
    static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `count` bytes from libsodium's CSPRNG (`getrandom(2)` on Linux).
    static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        randombytes_buf(&bytes, count)
        return bytes
    }

    /// The SHA-256 digest of `text`'s UTF-8 bytes.
    static func sha256(_ text: String) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        let input = Array(text.utf8)
        _ = crypto_hash_sha256(&digest, input, UInt64(input.count))
        return digest
    }
}

/// libsodium failed in a way identity cannot recover from (no entropy, out of memory).
struct SodiumError: Error, CustomStringConvertible {
    /// What failed.
    let message: String
    var description: String { message }
}
