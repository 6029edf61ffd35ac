import IOInterface  // IOInterface: a route table over the reference contracts, for doubles, enumerations, lists and path aliases
import Testing
import VerticalsContract
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsWire

/// Matching URLs against the contracts' routes and building typed Inputs from them.
struct RouteTableTests {
    let table = RouteTable(contracts: Contracts.all)

    @Test func resolve_aliasedQueryParameters_convertToTheFieldsTypes() throws {
        let call = try table.resolve("verticals://clinics/nearest?lat=51.5&lon=-0.12&limit=3&service=pharmacy")
        #expect(call.operation.fullName == "clinics.nearest")
        let input = try Clinics.NearestInput(decoding: call.input.encoded(as: Clinics.NearestInput.schema))
        #expect(input.latitude == 51.5)
        #expect(input.longitude == -0.12)
        #expect(input.limit == 3)
        #expect(input.service == .pharmacy)
    }

    @Test func resolve_aLiteralSegmentWinsOverAParameter() throws {
        #expect(try table.resolve("/clinics/nearest?lat=1&lon=2").operation.fullName == "clinics.nearest")
        #expect(try table.resolve("/clinics/search?q=x").operation.fullName == "clinics.search")
        let get = try table.resolve("/clinics/c_0001")
        #expect(get.operation.fullName == "clinics.get")
        #expect(get.input.value(named: "id", in: Clinics.GetInput.schema) == .string("c_0001"))
    }

    @Test func resolve_pathParametersAndQueryTogether_fillTheInput() throws {
        let call = try table.resolve("verticals://appointments/a_42?token=t0k")
        #expect(call.operation.fullName == "appointments.get")
        let input = try Appointments.AppointmentRef(decoding: call.input.encoded(as: Appointments.AppointmentRef.schema))
        #expect(input.id == "a_42")
        #expect(input.token == "t0k")
    }

    @Test func resolve_percentEscapesAreDecodedAndATrailingSlashIgnored() throws {
        let call = try table.resolve("verticals://clinics/search/?q=St%20Mary%27s%26Co")
        #expect(call.input.value(named: "name", in: Clinics.SearchInput.schema) == .string("St Mary's&Co"))
    }

    @Test func resolve_aRepeatedFieldTakesEveryOccurrenceAndCommaLists() throws {
        let call = try table.resolve("/clinics?id=c_1,c_2&id=c_3")
        #expect(call.input.value(named: "ids", in: Clinics.GetManyInput.schema)
            == .list([.string("c_1"), .string("c_2"), .string("c_3")]))
    }

    @Test func resolve_aBareBooleanMeansTrue() throws {
        let call = try table.resolve("/notifications?token=t&unreadOnly")
        #expect(call.input.value(named: "unreadOnly", in: Notifications.InboxInput.schema) == .bool(true))
    }

    @Test(arguments: [
        ("/clinics/nearest?lat=north&lon=0", "lat", "latitude", "a number"),
        ("/clinics/nearest?lat=1&lon=0&limit=2.5", "limit", "limit", "an integer"),
        ("/clinics/nearest?lat=1&lon=inf", "lon", "longitude", "a number"),
        ("/clinics/nearest?lat=1&lon=0&service=spa", "service", "service", "one of "),
        ("/clinics/c_1/slot?service=pharmacy&startsAt=tomorrow&endsAt=2026-11-23T10:00:00Z", "startsAt", "startsAt", "RFC 3339"),
        ("/notifications?token=t&unreadOnly=maybe", "unreadOnly", "unreadOnly", "true or false"),
    ])
    func resolve_aValueThatDoesNotConvert_namesTheParameterFieldAndType(
        url: String, parameter: String, field: String, expected: String
    ) {
        #expect {
            _ = try table.resolve(url)
        } throws: { error in
            guard let error = error as? RouteError, error.code == .conversion else { return false }
            let named = parameter == field ? field : "\(parameter) (field \(field))"
            return error.message.hasPrefix("\(named) of ") && error.message.contains(": expected ") && error.message.contains(expected)
        }
    }

    @Test func resolve_anUnknownParameter_listsTheOnesTheOperationTakes() {
        #expect(throws: RouteError.unknownParameter(
            "radius", operation: "clinics.nearest",
            known: ["latitude", "longitude", "limit", "service", "lat (latitude)", "lon (longitude)"])
        ) {
            _ = try table.resolve("/clinics/nearest?lat=1&lon=2&radius=5")
        }
    }

    @Test func resolve_aSingleValuedParameterGivenTwice_isRefused() {
        #expect(throws: RouteError.repeatedParameter("latitude", operation: "clinics.nearest")) {
            _ = try table.resolve("/clinics/nearest?lat=1&latitude=2&lon=3")
        }
    }

    @Test func resolve_aMissingRequiredField_isNamed() {
        #expect {
            _ = try table.resolve("/clinics/nearest?lat=1")
        } throws: { error in
            guard let error = error as? RouteError, error.code == .invalidInput else { return false }
            return error.message.hasPrefix("clinics.nearest: ") && error.message.contains("longitude")
        }
    }

    @Test func resolve_noMatchingRoute_offersTheRoutesOfTheSameVertical() {
        #expect {
            _ = try table.resolve("/clinics/c_1/slot/extra")
        } throws: { error in
            guard let error = error as? RouteError, error.code == .noRoute else { return false }
            return error.message.hasPrefix("no route matches /clinics/c_1/slot/extra;") && !error.candidates.isEmpty
                && error.candidates.allSatisfy { $0.hasPrefix("/clinics") }
        }
        #expect {
            _ = try table.resolve("/teleport")
        } throws: { error in
            guard let error = error as? RouteError, error.code == .noRoute else { return false }
            return error.candidates.count == table.entries.count
        }
    }

    @Test(arguments: ["https://clinics/nearest", "verticals://", "clinics/nearest", "/clinics/%zz", "/clinics//x", "/clinics/search?q=a#top"])
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
        #expect(throws: RouteError.ambiguous(
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

    @Test func contracts_haveNoTwoRoutesThatOneURLMatchesEquallyWell() {
        #expect(table.conflicts().map { "\($0.0.summary) / \($0.1.summary)" } == [])
    }

    @Test func contracts_everyRouteNamesScalarFieldsOfItsInput() {
        for entry in table.entries {
            let fields = entry.operation.input.schema.fields
            var named = entry.route.aliases.map(\.value)
            for segment in entry.route.segments {
                if case .parameter(let name) = segment { named.append(entry.route.field(named: name)) }
            }
            for name in named {
                let field = fields.first { $0.name == name }
                #expect(field != nil, "\(entry.summary) names \(name), not a field of \(entry.operation.input.schema.name)")
                if case .message = field?.type { Issue.record("\(entry.summary): \(name) is a message") }
            }
        }
    }
}

/// A contract with two routes that match the same URLs, and a message-typed field.
private enum Overlapping: ServiceContract {
    static let name = "things"
    static let summary = "Two routes that cannot be told apart."

    static let get = Operation<Key, Key>(name, "get", summary: "By id.", route: Route("/things/{id}"))
    static let find = Operation<Key, Key>(name, "find", summary: "By name.", route: Route("/things/{name}"))
    static let list = Operation<Key, Key>(name, "list", summary: "All.", route: Route("/things"))
    static let operations = [get.descriptor, find.descriptor, list.descriptor]

    struct Key: WireMessage, Equatable {
        var id: String?
        var name: String?
        var nested: Empty?
        static let schema = MessageSchema(
            "things.Key", [.optional(1, "id", .string), .optional(2, "name", .string), .optional(3, "nested", .message(Empty.self))])

        init(id: String? = nil, name: String? = nil, nested: Empty? = nil) {
            self.id = id
            self.name = name
            self.nested = nested
        }

        func encode(to body: inout BodyWriter) {
            body.write(1, id)
            body.write(2, name)
            body.write(3, nested)
        }

        init(from body: inout BodyReader) throws(WireDecodingError) {
            self.init()
            while let tag = try body.nextTag() {
                switch tag {
                case 1: id = try body.read()
                case 2: name = try body.read()
                case 3: nested = try body.read()
                default: try body.skip()
                }
            }
        }
    }
}
