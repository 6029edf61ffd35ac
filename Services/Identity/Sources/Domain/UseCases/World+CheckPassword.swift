extension World {
    /// Checks `password` against the credentials `lookup` finds, as `attempt` of the login
    /// throttle: begun before anything is read (throws ``IdentityFailure/tooManyAttempts(retryAfterSeconds:)``
    /// when it may not), failed on a wrong password (then throws `wrong`), ended otherwise: a
    /// match, or a store, a hashing or a request that failed, whose error it passes on. Returns
    /// the credentials that matched.
    func checkPassword(
        _ password: String, as attempt: LoginThrottle.Attempt, wrong: IdentityFailure,
        against lookup: () async throws -> UserRepository.Credentials?
    ) async throws -> UserRepository.Credentials {
        try await loginThrottle.begin(attempt, at: now())
        let found: UserRepository.Credentials?
        let matches: Bool
        do {
            found = try await lookup()
            matches = try await verifyPassword(password, found?.passwordHash)
        } catch {
            // Not a guess that failed: the store or the hashing did, or the request was cancelled.
            loginThrottle.ended(attempt, at: now())
            throw error
        }
        guard matches, let found else {
            loginThrottle.failed(attempt, at: now())
            throw wrong
        }
        loginThrottle.ended(attempt, at: now())
        return found
    }
}
