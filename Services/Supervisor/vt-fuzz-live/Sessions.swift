import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// Real sessions, learnt from the marks alone: the operation marked `issuesSession` says what
/// credentials look like (its Input) and where the token is (its Output, the field the
/// `endsSession` operation takes too); an unmarked operation of the same vertical whose Input
/// holds all of those credentials registers an account (a patient); the one marked
/// `createsFirstAdmin` makes an admin, as `svc-supervisor admin create` does (only the operator
/// may: the fuzzer runs as root or as the suite's user).
struct Sessions {
    /// The field Inputs carry the token in, when the suite issues sessions.
    let tokenField: String?
    /// A logged-in account without roles.
    let patient: String?
    /// A logged-in admin.
    let admin: String?
    /// What did not work, for the report.
    let notes: [String]

    static let none = Sessions(
        tokenField: nil, patient: nil, admin: nil, notes: ["the suite marks no operation issuesSession"])

    /// Registers and logs in a patient and an admin through `client`.
    static func open(_ suite: SuiteContracts, client: ServiceClient, seed: UInt64) async -> Sessions {
        guard let login = suite.operation(marked: .issuesSession) else { return .none }
        let loginInput = login.operation.input.schema
        let loginOutput = login.operation.output.schema
        let outputStrings = loginOutput.fields.filter { $0.type == .string && $0.presence != .repeated }
        let ending = suite.operation(marked: .endsSession)?.operation.input.schema.fields.map(\.name) ?? []
        let tokenField =
            outputStrings.first { ending.contains($0.name) }?.name
            ?? outputStrings.first { !LearnedValues.isID($0.name) }?.name
        var notes: [String] = []
        let contract = suite.contracts.first { $0.name == login.vertical }
        let registration = contract?.ownOperations.filter { operation in
            operation.marks.isEmpty
                && loginInput.fields.allSatisfy { wanted in
                    operation.input.schema.field(named: wanted.name)?.type == wanted.type
                }
        }.min { $0.input.schema.fields.count < $1.input.schema.fields.count }

        func credentials(for schema: MessageSchema, number: Int) -> MessageValue {
            var value = MessageValue()
            for (index, field) in schema.fields.enumerated() where field.presence == .required || field.type == .string
            {
                switch field.type {
                case .string: value[field.tag] = .string(InputMaker.credentialLike(number * 10 + index))
                case .enumeration(let cases): value[field.tag] = .enumeration(cases.cases.first ?? "")
                case .bool: value[field.tag] = .bool(false)
                case .int: value[field.tag] = .int(1)
                case .uint: value[field.tag] = .uint(1)
                case .double: value[field.tag] = .double(1)
                case .timestamp: value[field.tag] = .timestamp(.epoch)
                case .bytes: value[field.tag] = .bytes([])
                case .message: value[field.tag] = .message(MessageValue())
                }
            }
            return value
        }

        /// Creates an account with `create`, then logs it in; its token.
        func account(_ create: SuiteContracts.Target, number: Int, role: String) async -> String? {
            let schema = create.operation.input.schema
            let made = credentials(for: schema, number: number)
            do {
                _ = try await client.callRaw(
                    service: create.vertical, operation: create.operation.fullName, body: try made.encoded(as: schema),
                    timeout: .seconds(30))
            } catch {
                notes.append("no \(role): \(create.label) refused: \(error)")
                return nil
            }
            // The login's fields take the values of the same fields of the account just made.
            var credentials = MessageValue()
            for field in loginInput.fields {
                if let value = made.value(named: field.name, in: schema) { credentials[field.tag] = value }
            }
            do {
                let body = try await client.callRaw(
                    service: login.vertical, operation: login.operation.fullName,
                    body: try credentials.encoded(as: loginInput), timeout: .seconds(30))
                let session = try MessageValue(decoding: body, as: loginOutput)
                guard let tokenField, case .string(let token)? = session.value(named: tokenField, in: loginOutput)
                else {
                    notes.append("no \(role): \(login.label) answered no token")
                    return nil
                }
                return token
            } catch {
                notes.append("no \(role): \(login.label) refused: \(error)")
                return nil
            }
        }

        let number = Int(truncatingIfNeeded: seed % 100_000) * 1_000 + Int.random(in: 0..<1_000)
        var patient: String?
        if let registration {
            patient = await account(
                SuiteContracts.Target(vertical: login.vertical, operation: registration), number: number,
                role: "patient")
        } else {
            notes.append("no patient: no unmarked operation of \(login.vertical) takes \(loginInput.name)'s fields")
        }
        var admin: String?
        if let firstAdmin = suite.operation(marked: .createsFirstAdmin) {
            admin = await account(firstAdmin, number: number + 1, role: "admin")
        } else {
            notes.append("no admin: the suite marks no operation createsFirstAdmin")
        }
        return Sessions(tokenField: tokenField, patient: patient, admin: admin, notes: notes)
    }
}
