import Glibc
import VerticalsContract
import VerticalsClient
import VerticalsSupervisorClient
import VerticalsWire

/// Which vertical the CLI sends each kind of secret to (``SecretKind``): the manifest's
/// `receives`, as the suite's own files say it, never what a vertical says of itself in
/// `daemon.describe` and never a cache. In order:
///
/// 1. the `status` of a supervisor whose control socket passed the listener check;
/// 2. the file that supervisor writes in its run folder, owned by root or this user in folders
///    nobody else may write (what a member of the operator group, who may not ask root's
///    supervisor, reads);
/// 3. the file `VERTICALS_SECRETS_FILE` names (as `export systemd` writes it), owned by root or
///    this user in folders nobody else may write;
/// 4. on a systemd host, `verticals-secrets.conf` beside `verticals.target`, owned by root in
///    root's folders.
///
/// With none of them the CLI refuses, and says which it looked for.
package struct SecretRecipients: Equatable {
    /// The vertical of each kind the manifest names.
    // bounded: one entry per SecretKind
    package let recipients: [SecretKind: String]
    /// Where they were read, for messages.
    package let source: String

    /// The recipients `suite` learned from its supervisor, else those of the files above.
    static func find(suite: SuiteVerticals) throws -> SecretRecipients {
        try find(supervisor: suite.secretRecipients, runFile: suite.secretRecipientsFile)
    }

    /// The recipients a checked supervisor's `status` gave (`supervisor`), else those of the
    /// files above, read with `environment`, for a CLI running as `euid`; `systemd`: whether
    /// systemd runs the suite here.
    package static func find(
        supervisor: [SecretKind: String]?, runFile: String? = nil,
        environment: [String: String] = ProcessEnvironment.current,
        euid: UInt32 = geteuid(), systemd: Bool = SystemdSuite.isRunning
    ) throws -> SecretRecipients {
        if let recipients = supervisor {
            return SecretRecipients(recipients: recipients, source: "the supervisor's status")
        }
        var looked = ["no supervisor that passed the listener check answered status"]
        if let runFile, access(runFile, F_OK) == 0 {
            if RootPlacedSocket.isPlaced(runFile, type: S_IFREG, by: [0, euid]) {
                return try read(runFile, trusting: [0, euid], variable: false)
            }
            looked.append(
                "\(runFile) is not believed (not root's or this user's alone, in folders nobody else may write)")
        }
        if let path = environment[SupervisorSettings.secretsFile.name], !path.isEmpty {
            return try read(path, trusting: [0, euid], variable: true)
        }
        looked.append("\(SupervisorSettings.secretsFile.name) is not set")
        if systemd {
            let systemd = try SystemdSuite(HostSuite.resolve(environment: environment))
            if let folder = systemd.unitFolder() {
                return try read("\(folder)/\(systemd.suite.secretsFile)", trusting: [0], variable: false)
            }
            looked.append("systemd knows no \(systemd.suite.target)\(systemd.suite.choiceHint)")
        } else {
            looked.append("systemd does not run the suite here")
        }
        throw CLIError(
            .notFound, status: 69,
            "the CLI does not know which vertical the manifest trusts with a password or a token: "
                + looked.joined(separator: "; ")
                + ". Point at the running suite (--run-dir), or export systemd again (it writes \(SecretRecipientsFile.name))"
        )
    }

    /// The recipients of the file at `path`, when only `trusting` can have written it.
    package static func read(_ path: String, trusting owners: Set<UInt32>, variable: Bool) throws -> SecretRecipients {
        let named = variable ? "\(path) (\(SupervisorSettings.secretsFile.name))" : path
        guard RootPlacedSocket.isPlaced(path, type: S_IFREG, by: owners) else {
            throw CLIError(
                .untrusted, status: 77,
                "\(named) is not believed: it must be a regular file of "
                    + (owners == [0] ? "root" : "root or this user")
                    + ", which nobody else may write, in folders nobody else may write, with no link on the way",
                details: [ErrorDetail("path", path)])
        }
        guard let text = WholeFile.read(path), let recipients = SecretRecipientsFile.parse(text) else {
            throw CLIError(
                .malformed, status: 78,
                "\(named) cannot be read as KIND = SERVICE lines (\(SecretKind.allCases.map(\.rawValue).joined(separator: ", ")))",
                details: [ErrorDetail("path", path)])
        }
        return SecretRecipients(recipients: recipients, source: named)
    }

    /// The vertical that receives what an operation marked `mark` takes; refuses (exit 69) when
    /// the manifest names none.
    package func service(for mark: OperationMark) throws -> String {
        guard let kind = SecretKind(mark: mark) else {
            throw CLIError(.internal, status: 70, "\(mark) carries no secret the manifest assigns")
        }
        guard let service = recipients[kind] else {
            throw CLIError(
                .notFound, status: 69,
                "no vertical receives \"\(kind)\" (the operation marked \(mark)) according to \(source): "
                    + "name one in the manifest, receives = [\"\(kind)\"]")
        }
        return service
    }

    /// Why `contract`, described by `service`, is refused: it claims a mark whose kind of secret
    /// the manifest gives another vertical (naming both); nil when it agrees.
    package func disagreement(of service: String, _ contract: DescribedContract) -> String? {
        for operation in contract.operations {
            for mark in operation.marks {
                guard let kind = SecretKind(mark: mark), let named = recipients[kind], named != service else {
                    continue
                }
                return "\(service) describes \(operation.fullName) as marked \(mark), but the manifest gives "
                    + "\"\(kind)\" to \(named) (\(source)): a vertical's description does not choose where secrets go"
            }
        }
        return nil
    }
}
