import Testing
import VerticalsManifest
import VerticalsTesting
import VerticalsWire

/// `ManifestError` in the framework's one error shape (`CodedError`): a code to branch on, the
/// message a person reads after its service and key, details a program reads, and a cause that is
/// kept but never compared.
struct ManifestErrorShapeTests {
    @Test func aProblem_namesItsServiceAndKey_inItsDetails_beforeItsValues() {
        let error = ManifestError(
            .unknownDependency, service: "catalog", key: "depends_on", "depends on \"ledgr\"",
            values: [ErrorDetail("dependency", "ledgr")])

        #expect(error.code == .unknownDependency)
        #expect(error.details.map(\.key) == ["service", "key", "dependency"])
        #expect(error.detail("service") == "catalog" && error.detail("key") == "depends_on")
        #expect(error.detail("dependency") == "ledgr")
    }

    @Test(arguments: [
        ("one", "restart", "services.one.restart: m"), ("one", nil, "services.one: m"),
        (nil, "suite.name", "suite.name: m"),
        (nil, nil, "m"),
    ])
    func itPrints_itsMessage_afterWhereItIs(service: String?, key: String?, printed: String) {
        let error = ManifestError(.invalidValue, service: service, key: key, "m")

        #expect(error.description == printed)
        #expect(error.message == "m")
        #expect(error.details.count == [service, key].compactMap { $0 }.count)
    }

    @Test func theCause_isKept_butNotCompared() {
        expectCauseIsKeptButNotCompared(
            { ManifestError(.syntax, "not valid TOML", cause: $0) },
            differsFrom: ManifestError(.invalidValue, "not valid TOML"),
            ManifestError(.syntax, "not valid TOML", values: [ErrorDetail("line", "1")]))
    }

    @Test func servicesThatWaitForEachOther_haveNoStartOrder_aDependencyCycle() throws {
        var first = ServiceSpec(name: "a", executable: "/bin/true")
        first.dependsOn = ["b"]
        var second = ServiceSpec(name: "b", executable: "/bin/true")
        second.dependsOn = ["a"]
        let manifest = Manifest(services: [first, second])

        #expect {
            try manifest.startOrder()
        } throws: { error in
            (error as? ManifestError)?.code == .dependencyCycle
        }
        let problem = try #require(manifest.dependencyProblems().first)
        #expect(problem.code == .dependencyCycle && problem.detail("cycle") == "a -> b -> a")
    }
}
