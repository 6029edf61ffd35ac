import VerticalsManifest
import VerticalsContract

/// Which product's suite the CLI means on a host where systemd may run several (`export systemd`
/// names every unit, user, group and socket folder after the manifest's `[suite] name`), for the
/// commands that look at those names when no running `up` answers: ``SystemdSuite``, root's
/// ``SuiteLocation/rootFallback(environment:exported:)`` and ``TrustedCallee``.
///
/// `$VERTICALS_SUITE` names it; else the suite whose target systemd has loaded
/// (`NAME.target`, described as ``SuiteName/targetDescription``), when there is exactly one;
/// else the framework's own, `verticals`, and ``others`` says which were found, so that a
/// message can tell the operator to pick one.
package struct HostSuite: Sendable, Equatable {
    /// The variable that names the suite.
    package static let variable = SupervisorSettings.suite.name

    /// The suite's name, a valid ``SuiteName``.
    package let name: String
    /// How the name was chosen, for messages: "$VERTICALS_SUITE", "the one suite systemd knows here"…
    package let chosenBy: String
    /// The suites systemd knows on this host besides ``name``, when it knows several and nothing
    /// chose among them.
    package var others: [String] = []

    /// The suite `name` (a valid ``SuiteName``), chosen as `chosenBy` says.
    package init(name: String, chosenBy: String) {
        self.name = name
        self.chosenBy = chosenBy
    }

    /// Unit and user names start with this: `NAME-`.
    package var unitPrefix: String { "\(name)-" }
    /// Where the suite's units put their sockets: `/run/NAME`.
    package var socketDirectory: String { "/run/\(name)" }
    /// The target that pulls in the whole suite.
    package var target: String { "\(name).target" }
    /// The file naming the vertical that receives each kind of secret, beside the units
    /// (`SystemdLayout/secretsFile`).
    package var secretsFile: String { "\(name)-secrets.conf" }

    /// The system user the export gives `service` (a manifest's own `user` aside).
    package func systemUser(of service: String) -> String { unitPrefix + service }

    /// The framework's own suite.
    package static let reference = HostSuite(name: SuiteName.default, chosenBy: "the framework's own suite")

    /// The suite `environment` names, else the one among `exported` (the suites systemd knows
    /// here, ``exportedSuites()``), else ``reference``. A `$VERTICALS_SUITE` that is no suite name is
    /// a usage error (64) naming what is wrong with it.
    package static func resolve(
        environment: [String: String], exported: @autoclosure () -> [String] = exportedSuites()
    ) throws(CLIError) -> HostSuite {
        if let named = environment[variable], !named.isEmpty {
            if let problem = SuiteName.problems(named).first {
                throw CLIError(.usage, status: 64, "$\(variable)=\(problem.message)", cause: problem)
            }
            return HostSuite(name: named, chosenBy: "$\(variable)")
        }
        let found = exported()
        if found.count == 1, let only = found.first {
            return HostSuite(name: only, chosenBy: "the one suite systemd knows here")
        }
        var chosen = reference
        chosen.others = found.filter { $0 != reference.name }
        return chosen
    }

    /// The names of the suites whose targets systemd has loaded on this host (enabled or running:
    /// `systemctl list-units --type=target --all`), each a valid ``SuiteName``; empty where systemd
    /// does not run.
    package static func exportedSuites() -> [String] {
        guard SystemdSuite.isRunning else { return [] }
        var names: [String] = []
        ProgramOutput.lines(
            SystemdSuite.systemctl,
            ["list-units", "--type=target", "--all", "--no-legend", "--plain", "--full"]
        ) { line in
            if let name = suiteName(ofTargetLine: line) { names.append(name) }
        }
        return names.sorted()
    }

    /// The suite a line of `systemctl list-units --plain` names ("acme.target loaded active
    /// active Verticals: …"): its unit's name less `.target`, when its description is
    /// ``SuiteName/targetDescription`` and the name is a valid suite name; nil otherwise.
    package static func suiteName(ofTargetLine line: String) -> String? {
        guard line.hasSuffix(" " + SuiteName.targetDescription),
            let unit = line.split(separator: " ", maxSplits: 1).first, unit.hasSuffix(".target")
        else { return nil }
        let name = String(unit.dropLast(".target".count))
        return SuiteName.problems(name).isEmpty ? name : nil
    }

    /// What a message adds when the suite was the framework's own for want of a choice among
    /// several: which others systemd knows, and how to pick one. Empty otherwise.
    package var choiceHint: String {
        others.isEmpty
            ? ""
            : " (systemd runs other suites here too: \(others.joined(separator: ", ")); "
                + "set \(Self.variable)=NAME for one of them)"
    }
}
