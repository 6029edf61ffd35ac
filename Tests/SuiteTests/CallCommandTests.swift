import Glibc
import IOInterface
import Testing
import VerticalsContract
import VerticalsTesting

/// `svc-supervisor call` as a user runs it: real argv, real processes, real sockets.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct CallCommandTests {
    @Test func call_givenValidJSON_printsTheOutputAsJSON() throws {
        let suite = try SuiteLauncher()
        try suite.start("clinics")
        let result = try suite.supervisor(
            "call", ["clinics", "nearest", #"{"latitude": 53.48, "longitude": -2.24, "limit": 1}"#])
        try expectNearestInManchester(result, count: 1)
    }

    @Test func call_readsTheInputFromStandardInputWithADash() throws {
        let suite = try SuiteLauncher()
        try suite.start("clinics")
        let result = try suite.supervisor("call", ["clinics", "get", "-"], standardInput: #"{"id": "c_0001"}"#)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try Clinics.Clinic(json: result.standardOutput).id == "c_0001")
    }

    @Test(arguments: [
        (#"{"latitude": "north", "longitude": 0}"#, "latitude"),
        (#"{"longitude": 0}"#, "latitude"),
        (#"{"latitude": 1, "longitude": 0, "radius": 5}"#, "radius"),
        (#"{"latitude": 1, "longitude": 0, "limit": 2.5}"#, "limit"),
        (#"{"latitude": 1,"#, "JSON"),
        (#"{"latitude": 1, "longitude": 0, "service": "surgery"}"#, #""surgery" is not a case of clinics.Service"#),
        (#"{"latitude": 1, "longitude": 0, "service": "surgery"}"#, "gp, pharmacy, dentist"),
    ])
    func call_givenJSONThatDoesNotFitTheInput_refusesBeforeSendingAndNamesTheField(json: String, named: String) throws {
        // No vertical runs: a refusal here cannot have come from one. The CLI knows clinics' contract
        // from the description an earlier run cached.
        let result = try LearnedCache.runOffline(Clinics.self, "call", ["clinics", "nearest", json])
        #expect(result.status == 64)
        #expect(result.standardError.contains(named), "\(result.standardError)")
    }

    @Test func call_unknownOperation_listsTheOnesThatExist() throws {
        let result = try LearnedCache.runOffline(Clinics.self, "call", ["clinics", "teleport"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("nearest"))
    }

    @Test func call_whenTheVerticalIsNotRunning_exitsUnavailable() throws {
        let directory = TemporaryDirectory()
        let result = try runCommand(
            "svc-supervisor",
            ["call", "--socket-dir", directory.file("sockets"), "clinics", "get", #"{"id": "c_0001"}"#],
            in: directory)
        #expect(result.status == 69)
        #expect(result.standardError.contains("unavailable"))
    }
}
