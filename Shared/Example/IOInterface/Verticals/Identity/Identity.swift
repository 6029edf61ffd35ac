import VerticalsContract
import VerticalsWire

/// The identity vertical's contract: users, password logins and sessions.
///
/// Other verticals call ``authenticate`` to turn a caller's session token into a
/// ``Principal``; nobody else reads identity's store.
///
/// Its operations are here; its messages and enumerations are declared in `identity.vcontract`
/// beside this file, from which VerticalsContractPlugin generates their Swift (docs/CONTRACTS.md).
public enum Identity: ServiceContract {
    public static let name = "identity"
    public static let summary = "Users, password hashes and sessions."

    /// Creates an account; `conflict` when the e-mail address is taken.
    public static let register = Operation<RegisterInput, Account>(
        name, "register", summary: "Create an account with an e-mail address and a password.",
        errors: [.invalidInput, .conflict])

    /// Exchanges an e-mail address and password for a session token.
    public static let login = Operation<LoginInput, Session>(
        name, "login", summary: "Log in; returns a session token and its expiry.",
        errors: [.invalidInput, .unauthenticated], marks: [.issuesSession])
    // Past the failed-login limit (per account and per caller) login answers `resourceExhausted`,
    // with a `retryAfterSeconds` detail; any call may get that code, so it is not listed.

    /// Resolves a session token to the user behind it.
    public static let authenticate = Operation<TokenInput, Principal>(
        name, "authenticate", summary: "Resolve a session token to its user and roles.",
        errors: [.unauthenticated])

    /// Ends a session; the token stops working at once.
    public static let logout = Operation<TokenInput, Empty>(
        name, "logout", summary: "Revoke a session token.", errors: [.unauthenticated], marks: [.endsSession])

    /// Ends every session of the token's user, the one presented too (so it is marked as ending
    /// the session it takes, as ``logout`` is: a tool never presents a token it means to keep).
    public static let logoutEverywhere = Operation<TokenInput, SessionsEnded>(
        name, "logoutEverywhere", summary: "Revoke every session token of the token's user, this one too.",
        errors: [.unauthenticated], marks: [.endsSession, .endsAllSessions])

    /// Changes the password of the token's user, given the current one; every session of theirs ends.
    /// A wrong current password counts as a failed login (`resourceExhausted` past the limit).
    public static let changePassword = Operation<PasswordChangeInput, SessionsEnded>(
        name, "changePassword",
        summary: "Change the password (the current one and a new one); every session of the user ends.",
        errors: [.invalidInput, .unauthenticated], marks: [.changesPassword])

    /// Looks up the public profile of a user, for other verticals (e.g. notifications checks a recipient).
    public static let getUser = Operation<UserInput, UserProfile>(
        name, "getUser", summary: "Fetch a user's public profile (id and display name) by user id.",
        errors: [.notFound], route: Route("/identity/users/{userID}"))

    /// Creates the first administrator of a fresh suite (`svc-supervisor admin create`). Only the
    /// operator may, as the `operatorOnly` mark admits: root, identity's own uid, the operator group
    /// or the operator certificate; and only while no account has the `admin` role (`conflict` after
    /// that: an admin grants the role).
    public static let createAdmin = Operation<FirstAdminInput, Account>(
        name, "createAdmin",
        summary:
            "Create the first admin; only the operator (root, the operator group or certificate) while no admin exists.",
        errors: [.invalidInput, .conflict, .permissionDenied], marks: [.createsFirstAdmin, .operatorOnly])

    /// Gives an account a role; the caller's token must be an admin's, and the caller the operator
    /// (``OperationMark/operatorOnly``): a vertical handed an admin's token still may not.
    public static let grantRole = Operation<RoleChangeInput, Account>(
        name, "grantRole", summary: "Grant a role to the account with an e-mail address; an admin's token only.",
        errors: [.invalidInput, .unauthenticated, .permissionDenied, .notFound], marks: [.grantsRole, .operatorOnly])

    /// Takes a role from an account; the caller's token must be an admin's, and the caller the
    /// operator (``OperationMark/operatorOnly``). The last admin keeps the role.
    public static let revokeRole = Operation<RoleChangeInput, Account>(
        name, "revokeRole",
        summary: "Revoke a role from the account with an e-mail address; an admin's token only; never the last admin.",
        errors: [.invalidInput, .unauthenticated, .permissionDenied, .notFound, .conflict],
        marks: [.revokesRole, .operatorOnly])

    public static let operations = [
        register.descriptor, login.descriptor, authenticate.descriptor, logout.descriptor,
        logoutEverywhere.descriptor, changePassword.descriptor, getUser.descriptor, createAdmin.descriptor,
        grantRole.descriptor, revokeRole.descriptor,
    ]
}
