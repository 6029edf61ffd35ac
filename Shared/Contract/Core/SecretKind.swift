/// A kind of secret the CLI sends to one vertical: which vertical receives each kind is named in
/// the manifest (a service's `receives = ["sessions", …]`), never by what a vertical says of
/// itself in `daemon.describe`. `svc-supervisor status` serves the manifest's choice, and
/// `export systemd` writes it beside the units (`verticals-secrets.conf`).
///
/// ```swift
/// SecretKind(mark: .issuesSession)  // .sessions: `login` sends the password to the vertical that receives sessions
/// ```
public enum SecretKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Passwords exchanged for a session (``OperationMark/issuesSession``): `svc-supervisor login`.
    case sessions
    /// The first administrator's password (``OperationMark/createsFirstAdmin``): `svc-supervisor admin create`.
    case firstAdmin = "first_admin"
    /// The current and the new password, with a token (``OperationMark/changesPassword``): `svc-supervisor password`.
    case password
    /// An admin's token with a role change (``OperationMark/grantsRole``, ``OperationMark/revokesRole``):
    /// `svc-supervisor admin grant` and `revoke`.
    case roles
    /// A token to revoke (``OperationMark/endsSession``, ``OperationMark/endsAllSessions``): `svc-supervisor logout`.
    case logout

    /// The kind of secret an operation marked `mark` receives; nil for a mark that carries none.
    public init?(mark: OperationMark) {
        guard let kind = Self.allCases.first(where: { $0.marks.contains(mark) }) else { return nil }
        self = kind
    }

    /// The marks of the operations that receive this kind.
    public var marks: [OperationMark] {
        switch self {
        case .sessions: [.issuesSession]
        case .firstAdmin: [.createsFirstAdmin]
        case .password: [.changesPassword]
        case .roles: [.grantsRole, .revokesRole]
        case .logout: [.endsSession, .endsAllSessions]
        }
    }

    public var description: String { rawValue }
}
