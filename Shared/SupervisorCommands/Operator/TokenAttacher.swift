import VerticalsContract
import VerticalsClient
import VerticalsWire

/// Puts the stored login's token into a call's JSON Input when the operation needs one and
/// the JSON gives none: when the Input's schema has a *required* `token` string field and the
/// object has no `token` key (or `null`). A token the user wrote is always kept. Used by `call`
/// and `open`, which then send the Input only through ``CredentialCallee``'s listener check.
///
/// ```swift
/// let attacher = TokenAttacher(schema: descriptor.input.schema) {
///     try StoredLogin.forCurrentUser(environment: ProcessEnvironment.current).load()?.token
/// }
/// let input = try attacher.attach(to: JSONValue(parsing: text))
/// ```
struct TokenAttacher {
    /// The operation's Input schema.
    let schema: MessageSchema
    /// The token to attach, asked for only when one is needed (nil: nobody is logged in).
    let token: () throws -> String?

    /// An attacher of the current user's stored login (`svc-supervisor login`).
    static func forCurrentUser(schema: MessageSchema) -> TokenAttacher {
        TokenAttacher(schema: schema) {
            try StoredLogin.forCurrentUser(environment: ProcessEnvironment.current).load()?.token
        }
    }

    /// The name of the Input field a session token goes in.
    static let field = OperationMark.sessionTokenField

    /// Whether `schema` asks for a token at all.
    var needsToken: Bool {
        schema.fields.contains { field in
            guard field.name == Self.field, case .required = field.presence, case .string = field.type else {
                return false
            }
            return true
        }
    }

    /// Whether `input` carries a credential: a `token` string, or a value for a field the schema
    /// marks secret. Such an Input goes only to a checked listener (``CredentialCallee``).
    func carriesCredential(_ input: JSONValue) -> Bool {
        guard case .object(let members) = input else { return false }
        return members.contains { member in
            guard member.value != .null else { return false }
            return member.key == Self.field || schema.field(named: member.key)?.secret == true
        }
    }

    /// `input` with the token added where needed; unchanged otherwise. Throws a ``CLIError``
    /// (exit 77) when a token is needed and nobody is logged in.
    func attach(to input: JSONValue) throws -> JSONValue {
        guard needsToken, case .object(var members) = input else { return input }
        if let given = members.first(where: { $0.key == Self.field }), given.value != .null { return input }
        guard let token = try token() else {
            throw CLIError(
                .notLoggedIn, status: 77,
                "\(schema.name) needs a token: svc-supervisor login first, or give \"token\" in the JSON")
        }
        members.removeAll { $0.key == Self.field }
        members.append((key: Self.field, value: .string(token)))
        return .object(members)
    }
}
