/// How identity behaves: what a deployment may tune, read once at start-up.
public struct Settings: Sendable {
    /// How long a session token works after login.
    public var sessionLifetime: Duration
    /// E-mail addresses (normalized) that get the `admin` role when they register.
    ///
    /// A development bootstrap: the first admin of a fresh suite registers with an address
    /// listed in `VERTICALS_ADMIN_EMAILS`. A real suite leaves it unset and uses `svc-supervisor admin create`
    /// (``CreateFirstAdmin``): whoever registers a listed address first becomes admin.
    public var adminEmails: Set<String>
    /// Argon2id's cost for new password hashes.
    public var passwordLimits: PasswordHasher.Limits

    /// Creates settings; the defaults are production's.
    public init(
        sessionLifetime: Duration = .seconds(24 * 3600), adminEmails: Set<String> = [],
        passwordLimits: PasswordHasher.Limits = .interactive
    ) {
        self.sessionLifetime = sessionLifetime
        self.adminEmails = adminEmails
        self.passwordLimits = passwordLimits
    }

    /// Reads the settings from the daemon's environment:
    ///
    /// - `IDENTITY_SESSION_HOURS`: session lifetime in whole hours (1...8760), default 24.
    /// - `VERTICALS_ADMIN_EMAILS`: comma-separated e-mail addresses that become admins on registration.
    /// - `IDENTITY_PWHASH_OPSLIMIT`, `IDENTITY_PWHASH_MEMLIMIT`: Argon2id passes and memory in
    ///   bytes, default libsodium's interactive limits (2, 64 MiB). Lower them only for tests.
    ///
    /// Throws ``SettingsError`` naming the variable when a value is not usable, so the
    /// daemon refuses to start rather than run with a setting it misread.
    public static func from(environment: [String: String]) throws(SettingsError) -> Settings {
        var settings = Settings()
        if let hours = environment["IDENTITY_SESSION_HOURS"], !hours.isEmpty {
            guard let value = Int(hours), (1...8760).contains(value) else {
                throw SettingsError(variable: "IDENTITY_SESSION_HOURS", value: hours, expected: "whole hours, 1...8760")
            }
            settings.sessionLifetime = .seconds(value * 3600)
        }
        if let list = environment["VERTICALS_ADMIN_EMAILS"] {
            for entry in list.split(separator: ",") where !String(entry).trimmedWhitespace.isEmpty {
                guard let email = EmailAddress(String(entry)) else {
                    throw SettingsError(
                        variable: "VERTICALS_ADMIN_EMAILS", value: String(entry), expected: "e-mail addresses")
                }
                settings.adminEmails.insert(email.value)
            }
        }
        let minimum = PasswordHasher.Limits.minimum
        if let ops = environment["IDENTITY_PWHASH_OPSLIMIT"], !ops.isEmpty {
            guard let value = UInt64(ops), value >= minimum.operations else {
                throw SettingsError(
                    variable: "IDENTITY_PWHASH_OPSLIMIT", value: ops, expected: "an integer ≥ \(minimum.operations)")
            }
            settings.passwordLimits.operations = value
        }
        if let memory = environment["IDENTITY_PWHASH_MEMLIMIT"], !memory.isEmpty {
            guard let value = Int(memory), value >= minimum.memoryBytes else {
                throw SettingsError(
                    variable: "IDENTITY_PWHASH_MEMLIMIT", value: memory, expected: "bytes, ≥ \(minimum.memoryBytes)")
            }
            settings.passwordLimits.memoryBytes = value
        }
        guard settings.passwordLimits.valid else {
            throw SettingsError(
                variable: "IDENTITY_PWHASH_OPSLIMIT/IDENTITY_PWHASH_MEMLIMIT", value: "\(settings.passwordLimits)",
                expected: "limits within libsodium's range")
        }
        return settings
    }
}

/// An environment variable identity cannot use.
public struct SettingsError: Error, CustomStringConvertible {
    /// The variable's name.
    public let variable: String
    /// What it held.
    public let value: String
    /// What it should hold.
    public let expected: String

    public var description: String { "\(variable)=\(value) is not usable: expected \(expected)" }
}
