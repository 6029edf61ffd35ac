import Glibc
import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsTesting

/// `svc-supervisor open` and `routes` as a user runs them: real argv, real daemons.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct OpenCommandTests {
    @Test func open_givenARouteWithAliasedQuery_callsTheOperationAndPrintsItsOutput() throws {
        let suite = try SuiteLauncher()
        try suite.start("clinics")
        let result = try suite.supervisor("open", ["verticals://clinics/nearest?lat=53.48&lon=-2.24&limit=2"])
        try expectNearestInManchester(result, count: 2)
    }

    @Test func open_givenAPathParameter_fillsTheFieldAndAnswersTheVerticalsTypedError() throws {
        let suite = try SuiteLauncher()
        try suite.start("clinics")
        let found = try suite.supervisor("open", ["verticals://clinics/c_0001"])
        #expect(found.status == 0, "\(found.standardError)")
        #expect(try Clinics.Clinic(json: found.standardOutput).id == "c_0001")

        let missing = try suite.supervisor("open", ["/clinics/c_9999"])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("notFound"), "\(missing.standardError)")
    }

    @Test(arguments: [
        ("verticals://clinics/nearest?lat=north&lon=0", "lat (field latitude)"),
        ("verticals://clinics/nearest?lon=0", "latitude"),
        ("verticals://teleport/now", "no route matches /teleport/now"),
        ("https://clinics/nearest", "scheme"),
    ])
    func open_givenAURLThatDoesNotMakeACall_refusesBeforeSendingAndSaysWhy(url: String, says: String) throws {
        // No vertical runs: a refusal here cannot have come from one. The CLI knows clinics' routes
        // from the description an earlier run cached.
        let result = try LearnedCache.runOffline(Clinics.self, "open", [url])
        #expect(result.status == 64)
        #expect(result.standardError.contains(says), "\(result.standardError)")
    }

    @Test func open_givenASessionTokenInTheURL_refusesIt_beforeSendingAnything() throws {
        // No vertical runs: the refusal is the CLI's. The token comes from `login`, never a URL.
        let result = try LearnedCache.runOffline(
            Appointments.self, "open", ["verticals://appointments/a_1?token=stolen-from-history"])
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains("the URL gives \"token\""), "\(result.standardError)")
        #expect(result.standardError.contains("svc-supervisor login"), "\(result.standardError)")
    }

    @Test func open_whoseCachedRouteLeadsToAnOperationTheVerticalNoLongerHas_asksAgain_andCallsTheOneItHasNow() throws {
        let suite = try SuiteLauncher()
        try suite.start("clinics")
        // An older clinics called its routed `nearest` "closest": the daemon answers unimplemented.
        var old = ServiceDescription.of(Clinics.self)
        let index = try #require(old.operations.firstIndex { $0.name == "nearest" })
        old.operations[index].name = "closest"
        let cache = LearnedCache.plant(old, socketDirectory: suite.sockets.path, in: suite.directory)
        let result = try suite.supervisor(
            "open", ["verticals://clinics/nearest?lat=53.48&lon=-2.24&limit=1"], environment: cache)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try Clinics.NearbyClinics(json: result.standardOutput).clinics.count == 1)
    }

    @Test func routes_listsEveryRoutedOperationTheRunningVerticalsDescribe() throws {
        let suite = try SuiteLauncher()
        try suite.startAll()
        let result = try suite.supervisor("routes", [])
        #expect(result.status == 0, "\(result.standardError)")
        let routed = Contracts.all.flatMap { $0.operations }.filter { $0.route != nil }
        #expect(!routed.isEmpty)
        for operation in routed {
            #expect(result.standardOutput.contains(operation.fullName), "\(operation.fullName) missing")
            #expect(result.standardOutput.contains(operation.route!.template))
        }
        #expect(result.standardOutput.contains("lat=latitude: double"))
    }
}
