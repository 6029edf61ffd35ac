import VerticalsClient
import VerticalsSupervisorClient
import VerticalsWire

/// The secrets an operation's Input asks for, read from the person at the terminal: each field
/// its schema marks `secret` and the command did not give, prompted with echo off
/// (``PasswordPrompt``), in schema order, so a secret never sits on a command line, in the shell's
/// history or in a process list. Which fields these are comes from the operation's description,
/// not from names this CLI knows.
enum SecretPrompt {
    /// `given` with, after it, each string field of `operation`'s Input marked `secret` that
    /// `given` lacks, read for `subject` (e.g. the account's name). A ``CLIError`` (exit 69)
    /// when the operation marks no field secret at all: this CLI then does not know where a
    /// password would go, and sends none.
    static func members(
        for operation: DescribedOperation, given: [(key: String, value: JSONValue)], subject: String,
        read: (String) throws -> String = { try PasswordPrompt.read(prompt: $0) }
    ) throws -> [(key: String, value: JSONValue)] {
        let secrets = try fields(of: operation)
        var members = given
        for field in secrets where !given.contains(where: { $0.key == field.name }) {
            members.append((key: field.name, value: .string(try read(prompt(for: field, subject: subject)))))
        }
        return members
    }

    /// The string fields `operation`'s Input marks `secret`, in schema order. A ``CLIError``
    /// (exit 69) when there is none: this CLI then does not know where a password would go, and
    /// neither asks for one (with echo on, as a plain field would be) nor sends any.
    static func fields(of operation: DescribedOperation) throws(CLIError) -> [FieldDescriptor] {
        let secrets = operation.input.schema.fields.filter { field in
            guard field.secret, case .string = field.type else { return false }
            return true
        }
        guard !secrets.isEmpty else {
            throw CLIError(
                .unsupported, status: 69,
                "\(operation.fullName) marks no field of its input secret: this CLI asks for a secret only "
                    + "where the operation's description says one goes (an older vertical? upgrade it)")
        }
        return secrets
    }

    /// "New secret for ada@example.org: " from the field `newSecret`.
    static func prompt(for field: FieldDescriptor, subject: String) -> String {
        words(field.name) + " for \(subject): "
    }

    /// "New secret" from `newSecret`: a field's name as words, the first capitalised.
    static func words(_ name: String) -> String {
        var words = ""
        for character in name {
            if character.isUppercase, !words.isEmpty { words.append(" ") }
            words.append(character.lowercased())
        }
        return words.prefix(1).uppercased() + words.dropFirst()
    }
}
