/// Session tokens: 256 random bits for the client, only their SHA-256 for the store.
///
/// A token is a bearer secret, so the store keeps `SHA-256(token)`: someone who reads the
/// database (a backup, a leaked file) cannot log in with what they find. A fast hash is
/// enough here, unlike passwords, because the token has 256 bits of entropy to guess.
package enum SessionTokens {
    /// How many random bytes a token carries.
    package static let byteCount = 32

    /// A new token: 32 bytes from `randombytes_buf`, base64url without padding (43 characters).
    static func generate() throws -> String {
        try Sodium.ensureReady()
        return Sodium.base64URL(Sodium.randomBytes(byteCount))
    }

    /// What the store keeps for `token`: its SHA-256 (`crypto_hash_sha256`) in lower-case hex.
    ///
    /// Public so that tests can find a session row from the token they hold.
    package static func storedHash(of token: String) -> String {
        Sodium.hex(Sodium.sha256(token))
    }
}
