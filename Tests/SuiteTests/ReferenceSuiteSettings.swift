/// The reference suite's own settings that its process tests give every daemon they start.
enum ReferenceSuiteSettings {
    /// identity's Argon2id at its cheapest: its real limits cost ~100 ms and 64 MiB a hash; the
    /// tests keep its shape, not its price.
    static let fastPasswordHashing = ["IDENTITY_PWHASH_OPSLIMIT": "1", "IDENTITY_PWHASH_MEMLIMIT": "8192"]
}
