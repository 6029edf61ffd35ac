import Testing
import VerticalsWire

@Suite struct ErrorCodeSetTests {
    @Test func holdsExactlyTheKnownCodesInsertedIntoIt() {
        for (index, code) in ErrorCode.knownCases.enumerated() {
            let set = ErrorCodeSet([code])
            for other in ErrorCode.knownCases {
                #expect(set.contains(other) == (other == code), "\(code) against \(other)")
            }
            let rest = ErrorCodeSet(ErrorCode.knownCases.enumerated().filter { $0.offset != index }.map(\.element))
            #expect(!rest.contains(code))
            #expect(rest.union(set) == ErrorCodeSet(ErrorCode.knownCases))
        }
    }

    @Test func aCodeThisBuildDoesNotKnow_isNeverAMember() {
        var set: ErrorCodeSet = [.conflict, .unknown("teapot")]
        set.insert(.unknown("kettle"))
        #expect(!set.contains(.unknown("teapot")))
        #expect(!set.contains(.unknown("kettle")))
        #expect(set == [.conflict])
    }

    @Test func theEmptySet_holdsNothing() {
        for code in ErrorCode.knownCases { #expect(!ErrorCodeSet().contains(code)) }
    }
}
