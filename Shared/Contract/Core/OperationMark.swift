/// What a tool may rely on an operation for, beyond its types: `svc-supervisor login` looks
/// for the operation marked ``issuesSession`` in the suite's descriptions rather than knowing
/// at build time which vertical serves it, and builds its Input from the operation's schema. A contract sets marks on the operation
/// (`Operation(…, marks: [.issuesSession])`); `daemon.describe` carries them as strings.
///
/// A struct over its string rather than an enum, so that a mark a newer daemon sends survives
/// a round trip through an older tool (which then just finds no use for it).
///
/// ```swift
/// public static let signIn = Operation<SignInInput, Session>(name, "signIn", summary: "…", marks: [.issuesSession])
/// ```
public struct OperationMark: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The mark as it travels in a description, e.g. `issuesSession`.
    public let rawValue: String

    /// A mark from its wire name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Exchanges what its Input asks for (the fields it marks `secret` read with echo off) for a
    /// session whose Output carries the token in the field ``sessionTokenField``: `svc-supervisor login`.
    public static let issuesSession = OperationMark(rawValue: "issuesSession")
    /// Revokes the session whose token (``sessionTokenField``) it takes: `svc-supervisor logout`.
    public static let endsSession = OperationMark(rawValue: "endsSession")
    /// Creates the first administrator from its Input, for the operator: `svc-supervisor admin create`.
    public static let createsFirstAdmin = OperationMark(rawValue: "createsFirstAdmin")
    /// Gives an account a role, with an admin's token (``sessionTokenField``): `svc-supervisor admin grant`.
    public static let grantsRole = OperationMark(rawValue: "grantsRole")
    /// Takes a role from an account, with an admin's token (``sessionTokenField``): `svc-supervisor admin revoke`.
    public static let revokesRole = OperationMark(rawValue: "revokesRole")
    /// Only the operator may call it: root, a member of the operator group (its primary gid), the
    /// daemon's own user, or the holder of the operator certificate over mutual TLS. Every other
    /// caller, a vertical that declares it included, is refused `permissionDenied` before the
    /// handler runs, and every call is logged once with its caller (an `audit` line). No
    /// vertical may declare such an operation in its World or its manifest `depends_on`.
    public static let operatorOnly = OperationMark(rawValue: "operatorOnly")

    /// Ends every session of the user whose token it takes: `svc-supervisor logout --everywhere`.
    public static let endsAllSessions = OperationMark(rawValue: "endsAllSessions")
    /// Changes the secret of the user whose token it takes, given the fields it marks `secret`
    /// (the current one and the new one): `svc-supervisor password`.
    public static let changesPassword = OperationMark(rawValue: "changesPassword")

    /// The field that holds a session's token: in the Output of the operation marked
    /// ``issuesSession``, and in the Input of every operation that takes a session (the CLI puts
    /// the stored one there).
    public static let sessionTokenField = "token"

    public var description: String { rawValue }
}
