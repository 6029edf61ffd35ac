import Testing
import VerticalsManifest
import VerticalsSharedTesting
import VerticalsSupervisorCommands
import VerticalsTesting

/// Which suite the CLI means on a host where systemd runs several products' suites, each named
/// after its `[suite] name`: `$VERTICALS_SUITE`, else the only one systemd knows, else the
/// framework's own with the others named.
struct HostSuiteTests {
    @Test func theVariable_namesTheSuite_itsUnitsSocketsAndUsers() throws {
        let suite = try HostSuite.resolve(environment: [HostSuite.variable: "acme"], exported: ["verticals", "zeta"])

        #expect(suite.name == "acme")
        #expect(suite.unitPrefix == "acme-")
        #expect(suite.socketDirectory == "/run/acme")
        #expect(suite.target == "acme.target")
        #expect(suite.systemUser(of: "billing") == "acme-billing")
        #expect(suite.others.isEmpty)
    }

    @Test(arguments: ["Acme", "../etc", "acme-", "a-name-longer-than-sixteen"])
    func aVariableThatIsNoSuiteName_isAUsageError_sayingWhy(_ named: String) {
        do {
            _ = try HostSuite.resolve(environment: [HostSuite.variable: named], exported: [])
            Issue.record("\(named.debugDescription) was taken for a suite name")
        } catch {
            #expect(error.status == 64)
            #expect(error.description.hasPrefix("$\(HostSuite.variable)=\(named.debugDescription)"), "\(error)")
        }
    }

    @Test func withoutTheVariable_theOnlySuiteSystemdKnows_isTheOne() throws {
        let suite = try HostSuite.resolve(environment: [:], exported: ["acme"])

        #expect(suite.name == "acme")
        #expect(suite.choiceHint.isEmpty)
    }

    @Test func withNone_itIsTheFrameworksOwn() throws {
        let suite = try HostSuite.resolve(environment: [HostSuite.variable: ""], exported: [])

        #expect(suite == HostSuite.reference)
        #expect(suite.socketDirectory == "/run/verticals")
    }

    @Test func withSeveral_itIsTheFrameworksOwn_andTheHintNamesTheOthersAndTheVariable() throws {
        let suite = try HostSuite.resolve(environment: [:], exported: ["acme", "verticals", "zeta"])

        #expect(suite.name == SuiteName.default)
        #expect(suite.others == ["acme", "zeta"])
        #expect(suite.choiceHint.contains("acme, zeta"))
        #expect(suite.choiceHint.contains("\(HostSuite.variable)=NAME"))
    }

    @Test func aTargetLine_isASuite_onlyWithTheSuitesDescriptionAndAValidName() {
        let description = SuiteName.targetDescription

        #expect(HostSuite.suiteName(ofTargetLine: "acme.target loaded active active \(description)") == "acme")
        #expect(HostSuite.suiteName(ofTargetLine: "acme.target loaded inactive dead \(description)") == "acme")
        #expect(HostSuite.suiteName(ofTargetLine: "multi-user.target loaded active active Multi-User System") == nil)
        #expect(HostSuite.suiteName(ofTargetLine: "Acme.target loaded active active \(description)") == nil)
        #expect(HostSuite.suiteName(ofTargetLine: "acme.service loaded active running \(description)") == nil)
    }

    /// The committed export of the reference suite carries the description the CLI looks for.
    @Test func theExportedTarget_carriesTheDescriptionTheCLIFindsItBy() throws {
        let target = try #require(readFile("\(ManifestFixture.repositoryRoot)/deploy/systemd/verticals.target"))

        #expect(target.contains("\nDescription=\(SuiteName.targetDescription)\n"))
    }

    @Test func root_withNothingNamingTheSuite_looksInTheSocketFolderOfTheSuiteSystemdRuns() {
        let location = SuiteLocation.resolve(flag: nil, environment: [:], pointers: [], euid: 0, exported: ["acme"])

        #expect(location.runDirectory == "/run/acme")
        #expect(location.isSystemdSockets)
        #expect(
            location.tried.last?.contains("suite acme: the one suite systemd knows here") == true, "\(location.tried)")
    }

    @Test func root_withABadVariable_saysSo_andLooksInTheFrameworksOwnFolder() {
        let location = SuiteLocation.resolve(
            flag: nil, environment: [HostSuite.variable: "Acme"], pointers: [], euid: 0, exported: ["acme"])

        #expect(location.runDirectory == "/run/verticals")
        #expect(location.tried.last?.contains("$\(HostSuite.variable)=") == true, "\(location.tried)")
    }
}
