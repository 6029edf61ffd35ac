import CSodium

/// Hashes and verifies passwords with Argon2id, through libsodium's `crypto_pwhash_str*`.
///
/// Why Argon2id from libsodium:
/// - Argon2id won the Password Hashing Competition (2015) and is RFC 9106's first choice. It
///   is *memory-hard*: every guess costs `memlimit` bytes of RAM as well as time, which takes
///   away most of the edge GPUs and ASICs have over the server that checks a login.
/// - libsodium is small, audited and well kept, and Debian packages it (`libsodium-dev`), so
///   security fixes arrive with the system's updates instead of through a vendored copy.
/// - Its string form (`$argon2id$v=19$m=65536,t=2,p=1$<salt>$<hash>`) carries the algorithm, a
///   fresh random salt and the cost parameters, so parameters can be raised later without a
///   migration: ``needsRehash(_:)`` spots an old hash and login re-hashes it.
/// - `crypto_pwhash_str_verify` compares in constant time.
///
/// Every call here is slow on purpose (≈ 50–100 ms and 64 MiB at the interactive limits): run
/// it off the event loop, with `Offload.compute`, or in the daemon's compute processes
/// (``PasswordJob``), as ``World`` does.
package struct PasswordHasher: Sendable {
    /// Argon2id's cost parameters.
    package struct Limits: Sendable, Equatable {
        /// Passes over memory (`opslimit`).
        package var operations: UInt64
        /// Memory per hash in bytes (`memlimit`).
        package var memoryBytes: Int

        /// Creates limits; they must lie within libsodium's bounds (``valid``).
        package init(operations: UInt64, memoryBytes: Int) {
            self.operations = operations
            self.memoryBytes = memoryBytes
        }

        /// libsodium's interactive limits (2 passes, 64 MiB): the default in production.
        package static var interactive: Limits {
            Limits(
                operations: UInt64(crypto_pwhash_opslimit_interactive()),
                memoryBytes: crypto_pwhash_memlimit_interactive())
        }

        /// The cheapest limits libsodium accepts (1 pass, 8 KiB): for tests only, never for real passwords.
        package static var minimum: Limits {
            Limits(operations: UInt64(crypto_pwhash_opslimit_min()), memoryBytes: crypto_pwhash_memlimit_min())
        }

        /// Whether libsodium accepts these limits.
        package var valid: Bool {
            (UInt64(crypto_pwhash_opslimit_min())...UInt64(crypto_pwhash_opslimit_max())).contains(operations)
                && (crypto_pwhash_memlimit_min()...crypto_pwhash_memlimit_max()).contains(memoryBytes)
        }
    }

    /// The limits new hashes are made with.
    package let limits: Limits
    /// A hash of a random password, made with ``limits``: login verifies against it when the
    /// e-mail address is unknown, so an unknown address costs as much time as a wrong password.
    package let dummyHash: String

    /// A hasher with `limits`; makes its dummy hash, so it takes as long as one hash.
    package init(limits: Limits) throws {
        try Sodium.ensureReady()
        guard limits.valid else {
            throw SodiumError(message: "Argon2id limits out of libsodium's range: \(limits)")
        }
        self.limits = limits
        dummyHash = try Self.hash(Sodium.base64URL(Sodium.randomBytes(16)), limits: limits)
    }

    /// A new Argon2id hash of `password` in libsodium's string form, with a fresh random salt.
    package func hash(_ password: String) throws -> String {
        try Self.hash(password, limits: limits)
    }

    /// Whether `password` matches `storedHash`, compared in constant time.
    package func verify(_ password: String, against storedHash: String) -> Bool {
        Self.verify(password, against: storedHash)
    }

    /// Whether `password` matches `storedHash`, compared in constant time (libsodium must be ready).
    package static func verify(_ password: String, against storedHash: String) -> Bool {
        let bytes = Array(password.utf8)
        return crypto_pwhash_str_verify(storedHash, bytes.map { CChar(bitPattern: $0) }, UInt64(bytes.count)) == 0
    }

    /// Spends one verification against the dummy hash and answers `false`: what login does
    /// for an unknown e-mail address, so its timing matches a wrong password's.
    package func verifyNothing(_ password: String) -> Bool {
        _ = verify(password, against: dummyHash)
        return false
    }

    /// Whether `storedHash` was made with other limits (or another algorithm) than ``limits``,
    /// so it should be replaced the next time its password is known.
    package func needsRehash(_ storedHash: String) -> Bool {
        crypto_pwhash_str_needs_rehash(storedHash, limits.operations, limits.memoryBytes) != 0
    }

    /// A new Argon2id hash of `password` with `limits`, which must be ``Limits/valid`` (libsodium
    /// must be ready).
    package static func hash(_ password: String, limits: Limits) throws -> String {
        let bytes = Array(password.utf8).map { CChar(bitPattern: $0) }
        var output = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        let status = crypto_pwhash_str_alg(
            &output, bytes, UInt64(bytes.count), limits.operations, limits.memoryBytes,
            crypto_pwhash_alg_argon2id13())
        guard status == 0 else {
            throw SodiumError(message: "Argon2id hashing failed (out of memory at \(limits.memoryBytes) bytes?)")
        }
        return Sodium.string(output)
    }
}
