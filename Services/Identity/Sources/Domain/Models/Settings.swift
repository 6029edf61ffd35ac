import VerticalsContract
import VerticalsServiceKit
import VerticalsSettings

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
        if let hours = try read(sessionHours, environment) { settings.sessionLifetime = .seconds(hours * 3600) }
        if let value = try read(passwordOperations, environment) { settings.passwordLimits.operations = UInt64(value) }
        if let value = try read(passwordMemoryBytes, environment) { settings.passwordLimits.memoryBytes = value }
        settings.loginAttempts = try LoginThrottle.Limits.from(environment: environment)
        guard settings.passwordLimits.valid else {
            throw SettingsError(
                variable: "\(passwordOperations.name)/\(passwordMemoryBytes.name)", value: "\(settings.passwordLimits)",
                expected: "limits within libsodium's range")
        }
        return settings
    }
}

extension Settings {
    /// The session lifetime.
    package static let sessionHours = Setting.integer(
        "IDENTITY_SESSION_HOURS", default: 24, in: 1...8760, unit: "hours",
        doc: "How long a session token works after login.")
    /// Argon2id's passes.
    package static let passwordOperations = Setting.integer(
        "IDENTITY_PWHASH_OPSLIMIT", default: Int(PasswordHasher.Limits.interactive.operations),
        in: Int(PasswordHasher.Limits.minimum.operations)...Int.max, unit: "passes",
        doc: "Argon2id's passes for new password hashes; lower it only for tests.")
    /// Argon2id's memory.
    package static let passwordMemoryBytes = Setting.integer(
        "IDENTITY_PWHASH_MEMLIMIT", default: PasswordHasher.Limits.interactive.memoryBytes,
        in: PasswordHasher.Limits.minimum.memoryBytes...Int.max, unit: "bytes",
        doc: "Argon2id's memory for new password hashes; lower it only for tests.")
    /// Failed logins per window.
    package static let loginFailures = Setting.integer(
        "IDENTITY_LOGIN_FAILURES", default: 5, in: 1...10_000, unit: "logins",
        doc: "Failed logins an account, and a caller, may have per window.")
    /// The throttle's window.
    package static let loginWindowSeconds = Setting.integer(
        "IDENTITY_LOGIN_WINDOW_SECONDS", default: 60, in: 1...86_400, unit: "seconds", doc: "The failed-login window.")
    /// Accounts and callers remembered.
    package static let loginTracked = Setting.integer(
        "IDENTITY_LOGIN_TRACKED", default: 10_000, in: 100...1_000_000, unit: "entries",
        doc: "The most accounts and callers the login throttle remembers at once.")

    /// Every setting identity reads beside every daemon's: what `--check` validates.
    package static let declaration = SettingsDeclaration(
        "svc-identity", summary: "What the identity daemon reads beside every daemon's settings.",
        [sessionHours, passwordOperations, passwordMemoryBytes, loginFailures, loginWindowSeconds, loginTracked])

    /// `setting`'s value in `environment`, nil when unset or empty; the ``SettingsError`` that
    /// stops the daemon when its value is not allowed.
    package static func read(_ setting: Setting<Int>, _ environment: [String: String]) throws(SettingsError) -> Int? {
        guard let text = environment[setting.name], !text.isEmpty else { return nil }
        do {
            return try setting.value(in: environment)
        } catch {
            throw SettingsError(variable: error.variable, value: text, expected: "\(setting.type), \(error.allowed)")
        }
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
