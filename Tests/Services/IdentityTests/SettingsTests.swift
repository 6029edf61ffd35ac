@testable import IdentityService
import Testing
import VerticalsTesting

@Suite("identity's settings from the environment")
struct SettingsTests {
    @Test func settings_withAnEmptyEnvironment_areProductions() throws {
        let settings = try Settings.from(environment: [:])

        #expect(settings.sessionLifetime == .seconds(24 * 3600))
        #expect(settings.passwordLimits == .interactive)
        #expect(settings.passwordLimits.operations == 2 && settings.passwordLimits.memoryBytes == 64 << 20)
        #expect(settings.loginAttempts == LoginThrottle.Limits(failures: 5, window: .seconds(60), tracked: 10_000))
    }

    @Test func settings_readEveryVariable() throws {
        let settings = try Settings.from(environment: [
            "IDENTITY_SESSION_HOURS": "2",
            "IDENTITY_PWHASH_OPSLIMIT": "1",
            "IDENTITY_PWHASH_MEMLIMIT": "8192",
            "IDENTITY_LOGIN_FAILURES": "20", "IDENTITY_LOGIN_WINDOW_SECONDS": "5", "IDENTITY_LOGIN_TRACKED": "500",
        ])

        #expect(settings.sessionLifetime == .seconds(7200))
        #expect(settings.passwordLimits == PasswordHasher.Limits(operations: 1, memoryBytes: 8192))
        #expect(settings.loginAttempts == LoginThrottle.Limits(failures: 20, window: .seconds(5), tracked: 500))
    }

    @Test(
        "a value identity cannot use stops the daemon, naming the variable",
        arguments: [
            ("IDENTITY_SESSION_HOURS", "0"), ("IDENTITY_SESSION_HOURS", "a day"),
            ("IDENTITY_PWHASH_OPSLIMIT", "0"),
            ("IDENTITY_PWHASH_MEMLIMIT", "1024"), ("IDENTITY_PWHASH_MEMLIMIT", "-5"),
            ("IDENTITY_LOGIN_FAILURES", "0"), ("IDENTITY_LOGIN_WINDOW_SECONDS", "a minute"),
            ("IDENTITY_LOGIN_TRACKED", "10"),
        ])
    func settings_givenAnUnusableValue_throw(variable: String, value: String) {
        #expect(throws: SettingsError.self) { try Settings.from(environment: [variable: value]) }
        do {
            _ = try Settings.from(environment: [variable: value])
        } catch {
            #expect(error.variable.contains(variable))
        }
    }
}
