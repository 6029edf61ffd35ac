/// The identity vertical's contract: users, password logins and sessions.
///
/// Other verticals call ``authenticate`` to turn a caller's session token into a
/// ``Principal``; nobody else reads identity's store.
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
        errors: [.invalidInput, .unauthenticated])

    /// Resolves a session token to the user behind it.
    public static let authenticate = Operation<TokenInput, Principal>(
        name, "authenticate", summary: "Resolve a session token to its user and roles.",
        errors: [.unauthenticated])

    /// Ends a session; the token stops working at once.
    public static let logout = Operation<TokenInput, Empty>(
        name, "logout", summary: "Revoke a session token.", errors: [.unauthenticated])

    /// Looks up the public profile of a user, for other verticals (e.g. notifications checks a recipient).
    public static let getUser = Operation<UserInput, UserProfile>(
        name, "getUser", summary: "Fetch a user's public profile (id and display name) by user id.",
        errors: [.notFound], route: Route("/users/{userID}"))

    /// Creates the first administrator of a fresh suite (`svc-supervisor admin create`). Only a
    /// local operator may: a caller whose `SO_PEERCRED` uid is root or identity's own uid; and only
    /// while no account has the `admin` role (`conflict` after that: an admin grants the role).
    public static let createAdmin = Operation<RegisterInput, Account>(
        name, "createAdmin",
        summary: "Create the first admin; only a local operator (root or identity's uid) while no admin exists.",
        errors: [.invalidInput, .conflict, .permissionDenied])

    /// Gives an account a role; the caller's token must be an admin's.
    public static let grantRole = Operation<RoleChangeInput, Account>(
        name, "grantRole", summary: "Grant a role to the account with an e-mail address; an admin's token only.",
        errors: [.invalidInput, .unauthenticated, .permissionDenied, .notFound])

    /// Takes a role from an account; the caller's token must be an admin's. The last admin keeps the role.
    public static let revokeRole = Operation<RoleChangeInput, Account>(
        name, "revokeRole",
        summary: "Revoke a role from the account with an e-mail address; an admin's token only; never the last admin.",
        errors: [.invalidInput, .unauthenticated, .permissionDenied, .notFound, .conflict])

    public static let operations = [
        register.descriptor, login.descriptor, authenticate.descriptor, logout.descriptor, getUser.descriptor,
        createAdmin.descriptor, grantRole.descriptor, revokeRole.descriptor,
    ]

    // MARK: Inputs

    /// The Input of ``Identity/register``.
    public struct RegisterInput: WireMessage {
        /// The login name; unique across the suite.
        public var email: String
        /// The password in clear; identity stores only a slow salted hash of it.
        public var password: String
        /// The name shown to other people.
        public var displayName: String

        public init(email: String, password: String, displayName: String) {
            self.email = email
            self.password = password
            self.displayName = displayName
        }

        public static let schema = MessageSchema(
            "identity.RegisterInput",
            [
                .required(1, "email", .string),
                .required(2, "password", .string),
                .required(3, "displayName", .string),
            ])
    }

    /// The Input of ``Identity/login``.
    public struct LoginInput: WireMessage {
        /// The account's e-mail address.
        public var email: String
        /// The account's password.
        public var password: String

        public init(email: String, password: String) {
            self.email = email
            self.password = password
        }

        public static let schema = MessageSchema(
            "identity.LoginInput", [.required(1, "email", .string), .required(2, "password", .string)])
    }

    /// An Input that carries only a session token (``Identity/authenticate``, ``Identity/logout``).
    public struct TokenInput: WireMessage {
        /// The session token from ``Identity/login``.
        public var token: String

        public init(token: String) {
            self.token = token
        }

        public static let schema = MessageSchema("identity.TokenInput", [.required(1, "token", .string)])
    }

    /// The Input of ``Identity/getUser``.
    public struct UserInput: WireMessage {
        /// The user's stable id, from ``Account/userID`` or ``Principal/userID``.
        public var userID: String

        /// Creates the value from its fields.
        public init(userID: String) {
            self.userID = userID
        }

        public static let schema = MessageSchema("identity.UserInput", [.required(1, "userID", .string)])
    }

    /// The Input of ``Identity/grantRole`` and ``Identity/revokeRole``.
    public struct RoleChangeInput: WireMessage {
        /// The session token of the admin making the change.
        public var token: String
        /// The account whose roles change.
        public var email: String
        /// The role granted or revoked.
        public var role: Role

        /// Creates the value from its fields.
        public init(token: String, email: String, role: Role) {
            self.token = token
            self.email = email
            self.role = role
        }

        public static let schema = MessageSchema(
            "identity.RoleChangeInput",
            [
                .required(1, "token", .string),
                .required(2, "email", .string),
                .required(3, "role", .enumeration(Role.schema)),
            ])
    }

    // MARK: Outputs

    /// A user account, without secrets.
    public struct Account: WireMessage {
        /// The user's stable id.
        public var userID: String
        /// The login e-mail address.
        public var email: String
        /// The name shown to other people.
        public var displayName: String
        /// What the user may do.
        public var roles: [Role]
        /// When the account was created.
        public var createdAt: Timestamp

        public init(userID: String, email: String, displayName: String, roles: [Role], createdAt: Timestamp) {
            self.userID = userID
            self.email = email
            self.displayName = displayName
            self.roles = roles
            self.createdAt = createdAt
        }

        public static let schema = MessageSchema(
            "identity.Account",
            [
                .required(1, "userID", .string),
                .required(2, "email", .string),
                .required(3, "displayName", .string),
                .repeated(4, "roles", .enumeration(Role.schema)),
                .required(5, "createdAt", .timestamp),
            ])
    }

    /// A session: the bearer token and when it stops working.
    public struct Session: WireMessage {
        /// The bearer token: 256 random bits, base64url; identity keeps only its hash.
        public var token: String
        /// When the token expires.
        public var expiresAt: Timestamp
        /// The user it belongs to.
        public var userID: String

        public init(token: String, expiresAt: Timestamp, userID: String) {
            self.token = token
            self.expiresAt = expiresAt
            self.userID = userID
        }

        public static let schema = MessageSchema(
            "identity.Session",
            [
                .required(1, "token", .string),
                .required(2, "expiresAt", .timestamp),
                .required(3, "userID", .string),
            ])
    }

    /// Who is calling: the answer of ``Identity/authenticate``.
    public struct Principal: WireMessage {
        /// The user's stable id.
        public var userID: String
        /// The name shown to other people.
        public var displayName: String
        /// What the user may do.
        public var roles: [Role]
        /// When the presented session expires.
        public var expiresAt: Timestamp

        public init(userID: String, displayName: String, roles: [Role], expiresAt: Timestamp) {
            self.userID = userID
            self.displayName = displayName
            self.roles = roles
            self.expiresAt = expiresAt
        }

        public static let schema = MessageSchema(
            "identity.Principal",
            [
                .required(1, "userID", .string),
                .required(2, "displayName", .string),
                .repeated(3, "roles", .enumeration(Role.schema)),
                .required(4, "expiresAt", .timestamp),
            ])
    }

    /// What anyone in the suite may know about a user: no e-mail address, no roles.
    public struct UserProfile: WireMessage {
        /// The user's stable id.
        public var userID: String
        /// The name shown to other people.
        public var displayName: String

        /// Creates the value from its fields.
        public init(userID: String, displayName: String) {
            self.userID = userID
            self.displayName = displayName
        }

        public static let schema = MessageSchema(
            "identity.UserProfile", [.required(1, "userID", .string), .required(2, "displayName", .string)])
    }

    /// What a user may do.
    public enum Role: WireEnum {
        /// Books appointments and keeps records about themself.
        case patient
        /// Works at a clinic.
        case clinician
        /// Manages the suite: creates clinics, grants roles.
        case admin
        /// A role this build does not know.
        case unknown(String)

        public static let knownCases: [Role] = [.patient, .clinician, .admin]
        public static let schema = EnumSchema("identity.Role", knownCases)
        public init(unknown raw: String) { self = .unknown(raw) }
        public var wireName: String {
            switch self {
            case .patient: "patient"
            case .clinician: "clinician"
            case .admin: "admin"
            case .unknown(let raw): raw
            }
        }
    }
}
