import Testing
import VerticalsContract
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTestSupport
import VerticalsWire

/// Matching URLs against the contracts' routes and building typed Inputs from them, over test
/// contracts of doubles, enumerations, lists, timestamps, booleans and path aliases.
struct RouteTableTests {
    let table = RouteTable(contracts: [Sites.self, Visits.self])

    @Test func resolve_aliasedQueryParameters_convertToTheFieldsTypes() throws {
        let call = try table.resolve("verticals://sites/nearest?lat=51.5&lon=-0.12&limit=3&service=pharmacy")
        #expect(call.operation.fullName == "sites.nearest")
        let input = try Specimen.NearestInput(decoding: call.input.encoded(as: Specimen.NearestInput.schema))
        #expect(input.latitude == 51.5)
        #expect(input.longitude == -0.12)
        #expect(input.limit == 3)
        #expect(input.service == .pharmacy)
    }

    @Test func resolve_aLiteralSegmentWinsOverAParameter() throws {
        #expect(try table.resolve("/sites/nearest?lat=1&lon=2").operation.fullName == "sites.nearest")
        #expect(try table.resolve("/sites/search?q=x").operation.fullName == "sites.search")
        let get = try table.resolve("/sites/s_0001")
        #expect(get.operation.fullName == "sites.get")
        #expect(get.input.value(named: "id", in: Specimen.GetInput.schema) == .string("s_0001"))
    }

    @Test func resolve_pathParametersAndQueryTogether_fillTheInput() throws {
        let call = try table.resolve("verticals://visits/v_42?token=t0k")
        #expect(call.operation.fullName == "visits.get")
        let input = try Specimen.VisitRef(decoding: call.input.encoded(as: Specimen.VisitRef.schema))
        #expect(input.id == "v_42")
        #expect(input.token == "t0k")
    }

    @Test func resolve_percentEscapesAreDecodedAndATrailingSlashIgnored() throws {
        let call = try table.resolve("verticals://sites/search/?q=St%20Mary%27s%26Co")
        #expect(call.input.value(named: "name", in: Specimen.SearchInput.schema) == .string("St Mary's&Co"))
    }

    @Test func resolve_aRepeatedFieldTakesEveryOccurrenceAndCommaLists() throws {
        let call = try table.resolve("/sites?id=s_1,s_2&id=s_3")
        #expect(
            call.input.value(named: "ids", in: Specimen.GetManyInput.schema)
                == .list([.string("s_1"), .string("s_2"), .string("s_3")]))
    }

    @Test func resolve_aBareBooleanMeansTrue() throws {
        let call = try table.resolve("/visits?token=t&upcomingOnly")
        #expect(call.input.value(named: "upcomingOnly", in: Specimen.VisitsInput.schema) == .bool(true))
    }

    @Test(arguments: [
        ("/sites/nearest?lat=north&lon=0", "lat", "latitude", "a number"),
        ("/sites/nearest?lat=1&lon=0&limit=2.5", "limit", "limit", "an integer"),
        ("/sites/nearest?lat=1&lon=inf", "lon", "longitude", "a number"),
        ("/sites/nearest?lat=1&lon=0&service=spa", "service", "service", "one of "),
        (
            "/sites/s_1/slot?service=pharmacy&startsAt=tomorrow&endsAt=2026-11-23T10:00:00Z", "startsAt", "startsAt",
            "RFC 3339"
        ),
        ("/visits?token=t&upcomingOnly=maybe", "upcomingOnly", "upcomingOnly", "true or false"),
    ])
    func resolve_aValueThatDoesNotConvert_namesTheParameterFieldAndType(
        url: String, parameter: String, field: String, expected: String
    ) {
        #expect {
            _ = try table.resolve(url)
        } throws: { error in
            guard let error = error as? RouteError, error.code == .conversion else { return false }
            let named = parameter == field ? field : "\(parameter) (field \(field))"
            return error.message.hasPrefix("\(named) of ") && error.message.contains(": expected ")
                && error.message.contains(expected)
        }
    }

    @Test func resolve_anUnknownParameter_listsTheOnesTheOperationTakes() {
        #expect(
            throws: RouteError.unknownParameter(
                "radius", operation: "sites.nearest",
                known: ["latitude", "longitude", "limit", "service", "lat (latitude)", "lon (longitude)"])
        ) {
            _ = try table.resolve("/sites/nearest?lat=1&lon=2&radius=5")
        }
    }

    @Test func resolve_aSingleValuedParameterGivenTwice_isRefused() {
        #expect(throws: RouteError.repeatedParameter("latitude", operation: "sites.nearest")) {
            _ = try table.resolve("/sites/nearest?lat=1&latitude=2&lon=3")
        }
    }

    @Test func resolve_aMissingRequiredField_isNamed() {
        #expect {
            _ = try table.resolve("/sites/nearest?lat=1")
        } throws: { error in
            guard let error = error as? RouteError, error.code == .invalidInput else { return false }
            return error.message.hasPrefix("sites.nearest: ") && error.message.contains("longitude")
        }
    }

    @Test func resolve_noMatchingRoute_offersTheRoutesOfTheSameVertical() {
        #expect {
            _ = try table.resolve("/sites/s_1/slot/extra")
        } throws: { error in
            guard let error = error as? RouteError, error.code == .noRoute else { return false }
            return error.message.hasPrefix("no route matches /sites/s_1/slot/extra;") && !error.candidates.isEmpty
                && error.candidates.allSatisfy { $0.hasPrefix("/sites") }
        }
        #expect {
            _ = try table.resolve("/teleport")
        } throws: { error in
            guard let error = error as? RouteError, error.code == .noRoute else { return false }
            return error.candidates.count == table.entries.count
        }
    }

    @Test(arguments: [
        "https://sites/nearest", "verticals://", "sites/nearest", "/sites/%zz", "/sites//x", "/sites/search?q=a#top",
    ])
    func resolve_notAVerticalsURL_isMalformed(url: String) {
        #expect {
            _ = try table.resolve(url)
        } throws: { error in
            (error as? RouteError)?.code == .malformedURL
        }
    }

    @Test func resolve_equallySpecificRoutes_areAmbiguousAndListed() {
        let table = RouteTable(contracts: [Overlapping.self])
        #expect(table.conflicts().count == 1)
        #expect(
            throws: RouteError.ambiguous(
                path: "/things/x", candidates: ["/things/{id}  →  things.get", "/things/{name}  →  things.find"])
        ) {
            _ = try table.resolve("/things/x")
        }
    }

    @Test func resolve_aMessageFieldCannotComeFromAURL() {
        let table = RouteTable(contracts: [Overlapping.self])
        #expect {
            _ = try table.resolve("/things?nested=x")
        } throws: { error in
            guard let error = error as? RouteError, error.code == .unsupportedField else { return false }
            return error.message.hasPrefix("nested of ")
        }
    }
}

/// Sites, by id, name, distance or many ids, and whether one can take a slot: routes with path
/// parameters, aliases, lists, doubles, an enumeration and timestamps.
private enum Sites: ServiceContract {
    static let name = "sites"
    static let summary = "Sites to look up."

    static let get = Operation<Specimen.GetInput, Empty>(name, "get", summary: "By id.", route: Route("/sites/{id}"))
    static let search = Operation<Specimen.SearchInput, Empty>(
        name, "search", summary: "By name.", route: Route("/sites/search", aliases: ["q": "name"]))
    static let nearest = Operation<Specimen.NearestInput, Empty>(
        name, "nearest", summary: "Nearest a point.",
        route: Route("/sites/nearest", aliases: ["lat": "latitude", "lon": "longitude"]))
    static let getMany = Operation<Specimen.GetManyInput, Empty>(
        name, "getMany", summary: "By ids.", route: Route("/sites", aliases: ["id": "ids"]))
    static let checkSlot = Operation<Specimen.CheckSlotInput, Empty>(
        name, "checkSlot", summary: "Whether a site can take a slot.", route: Route("/sites/{siteID}/slot"))
    static let operations = [
        get.descriptor, search.descriptor, nearest.descriptor, getMany.descriptor, checkSlot.descriptor,
    ]
}

/// Visits of a session's holder: a path parameter beside a query one, and a boolean.
private enum Visits: ServiceContract {
    static let name = "visits"
    static let summary = "A holder's visits."

    static let get = Operation<Specimen.VisitRef, Empty>(
        name, "get", summary: "One visit.", route: Route("/visits/{id}"))
    static let list = Operation<Specimen.VisitsInput, Empty>(
        name, "list", summary: "A page of visits.", route: Route("/visits"))
    static let operations = [get.descriptor, list.descriptor]
}

/// A contract with two routes that match the same URLs, and a message-typed field.
private enum Overlapping: ServiceContract {
    static let name = "things"
    static let summary = "Two routes that cannot be told apart."

    static let get = Operation<Specimen.ThingKey, Empty>(name, "get", summary: "By id.", route: Route("/things/{id}"))
    static let find = Operation<Specimen.ThingKey, Empty>(
        name, "find", summary: "By name.", route: Route("/things/{name}"))
    static let list = Operation<Specimen.ThingKey, Empty>(name, "list", summary: "All.", route: Route("/things"))
    static let operations = [get.descriptor, find.descriptor, list.descriptor]
}
