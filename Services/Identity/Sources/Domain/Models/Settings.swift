import VerticalsServiceKit

/// How identity behaves: what a deployment may tune, read once at start-up.
package struct Settings: Sendable {
    /// How long a session token works after login.
    package var sessionLifetime: Duration
    /// Argon2id's cost for new password hashes.
    package var passwordLimits: PasswordHasher.Limits
    /// How many failed logins an account, and a caller, may have per window (``LoginThrottle``).
    package var loginAttempts: LoginThrottle.Limits

    /// Creates settings; the defaults are production's.
    package init(
        sessionLifetime: Duration = .seconds(24 * 3600), passwordLimits: PasswordHasher.Limits = .interactive,
        loginAttempts: LoginThrottle.Limits = LoginThrottle.Limits()
    ) {
        self.sessionLifetime = sessionLifetime
        self.passwordLimits = passwordLimits
        self.loginAttempts = loginAttempts
    }

    /// Reads the settings from the daemon's environment:
    ///
    /// - `IDENTITY_SESSION_HOURS`: session lifetime in whole hours (1...8760), default 24.
    /// - `IDENTITY_PWHASH_OPSLIMIT`, `IDENTITY_PWHASH_MEMLIMIT`: Argon2id passes and memory in
    ///   bytes, default libsodium's interactive limits (2, 64 MiB). Lower them only for tests.
    /// - `IDENTITY_LOGIN_FAILURES`: failed logins an account, and a caller, may have per window
    ///   (1...10000), default 5; `IDENTITY_LOGIN_WINDOW_SECONDS`: the window (1...86400), default 60;
    ///   `IDENTITY_LOGIN_TRACKED`: the most accounts and callers remembered at once (100...1000000),
    ///   default 10000 (``LoginThrottle``).
    ///
    /// Throws ``SettingsError`` naming the variable when a value is not usable, so the
    /// daemon refuses to start rather than run with a setting it misread.
    package static func from(environment: [String: String]) throws(SettingsError) -> Settings {
        var settings = Settings()
        if let hours = environment["IDENTITY_SESSION_HOURS"], !hours.isEmpty {
            guard let value = Int(hours), (1...8760).contains(value) else {
                throw SettingsError(variable: "IDENTITY_SESSION_HOURS", value: hours, expected: "whole hours, 1...8760")
            }
            settings.sessionLifetime = .seconds(value * 3600)
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
        settings.loginAttempts = try LoginThrottle.Limits.from(environment: environment)
        guard settings.passwordLimits.valid else {
            throw SettingsError(
                variable: "IDENTITY_PWHASH_OPSLIMIT/IDENTITY_PWHASH_MEMLIMIT", value: "\(settings.passwordLimits)",
                expected: "limits within libsodium's range")
        }
        return settings
    }
}

/// An environment variable identity cannot use: the daemon exits 78, since a restart reads it again.
package struct SettingsError: Error, RestartCannotHelp, CustomStringConvertible {
    /// The variable's name.
    package let variable: String
    /// What it held.
    package let value: String
    /// What it should hold.
    package let expected: String

    package var description: String { "\(variable)=\(value) is not usable: expected \(expected)" }
}
