import Glibc
import Testing
import VerticalsManifest
import VerticalsSupervisorClient
import VerticalsTesting
import VerticalsWire

@testable import VerticalsSupervisorCommands

/// `CLIError` in the framework's one error shape (`CodedError`): a code a script or test branches
/// on, beside the exit status it ends the program with, details, and the error that led to it.
struct CLIErrorShapeTests {
    @Test func aVerticalsRefusal_isRefused_withItsWireCodeAndTheRefusalAsCause() {
        let refusal = ServiceError(.conflict, "taken", details: [ErrorDetail("field", "sku")])

        let error = CLIError(refusal: refusal, of: "shop.buy")

        #expect(error.code == .refused && error.status == 1)
        #expect(error.detail("wireCode") == "conflict")
        #expect((error.cause as? ServiceError) == refusal)
    }

    @Test func aVerticalThatCannotBeReached_isUnreachable_withStatus69() {
        let error = CLIError(refusal: ServiceError(.unavailable, "no answer"), of: "shop.list")

        #expect(error.code == .unreachable && error.status == 69)
        #expect(error.detail("wireCode") == "unavailable")
    }

    @Test func aHint_keepsTheCodeStatusDetailsAndCause() {
        let error = CLIError(refusal: ServiceError(.unavailable, "no answer"), of: "shop.list")

        let hinted = error.adding(lines: ["shop is stopped"])

        #expect(hinted.code == error.code && hinted.status == error.status && hinted.details == error.details)
        #expect(hinted.cause is ServiceError)
        #expect(hinted != error, "the text differs")
    }

    @Test func theCause_isKept_butNotCompared() {
        expectCauseIsKeptButNotCompared(
            { CLIError(.failed, status: 1, "it did not start", cause: $0) },
            differsFrom: CLIError(.refused, status: 1, "it did not start"),
            CLIError(.failed, status: 64, "it did not start"))
    }

    @Test func aStoredLoginNobodyCanPlace_isMisconfigured() {
        let error = #expect(throws: CLIError.self) { _ = try StoredLogin.forCurrentUser(environment: [:]) }

        #expect(error?.code == .misconfigured && error?.status == 78)
    }

    @Test func aStoredLoginThatIsNotOne_isMalformed_namingItsPath() throws {
        let directory = TemporaryDirectory()
        chmod(directory.path, 0o700)
        let login = try StoredLogin.forCurrentUser(environment: ["XDG_STATE_HOME": directory.path])
        mkdir(directory.file("verticals"), 0o700)
        #expect(writeFile("not json", to: login.path))

        let error = #expect(throws: CLIError.self) { _ = try login.load() }

        #expect(error?.code == .malformed && error?.detail("path") == login.path, "\(String(describing: error))")
    }

    @Test func aFlagWithoutItsValue_isUsage() {
        let error = #expect(throws: CLIError.self) { _ = try MarkedInput(words: ["--sku"]).split() }

        #expect(error?.code == .usage && error?.status == 64)
    }

    @Test func aSuiteVariableThatIsNoSuiteName_isUsage_withTheManifestsProblemAsCause() {
        let error = #expect(throws: CLIError.self) {
            _ = try HostSuite.resolve(environment: [HostSuite.variable: "Acme"], exported: [])
        }

        #expect(error?.code == .usage && error?.cause is ManifestError)
    }
}
