import Testing
import VerticalsSupervisor
import VerticalsWire

/// `ELFLinkage.Problem` in the framework's one error shape (`CodedError`): a code for each kind
/// of file the supervisor will not read, and the sentence it said before as its message.
struct ELFLinkageProblemShapeTests {
    /// An ELF header of 64 bytes: 64-bit little-endian unless changed, with no program headers.
    static func header(_ change: (inout [UInt8]) -> Void = { _ in }) -> [UInt8] {
        var bytes = [0x7F, 0x45, 0x4C, 0x46, 2, 1] + [UInt8](repeating: 0, count: 58)
        change(&bytes)
        return bytes
    }

    static func problem(_ bytes: [UInt8]) -> ELFLinkage.Problem? {
        do {
            _ = try ELFLinkage.parse(size: UInt64(bytes.count)) { offset, count in
                Int(offset) + count <= bytes.count ? Array(bytes[Int(offset)..<Int(offset) + count]) : nil
            }
            return nil
        } catch {
            return error
        }
    }

    @Test func aThirtyTwoBitFile_isUnsupported() throws {
        let problem = try #require(Self.problem(Self.header { $0[4] = 1 }))

        #expect(problem.code == .unsupported && problem.description == problem.message)
        #expect(problem.message == "a 32-bit or big-endian ELF file, which the supervisor does not read")
    }

    @Test func moreProgramHeadersThanAreRead_isTooLarge() throws {
        let problem = try #require(
            Self.problem(
                Self.header {
                    $0[56] = 0xFF; $0[57] = 0xFF
                }))

        #expect(problem.code == .tooLarge && "\(problem.code)" == "tooLarge")
    }

    @Test func aHeaderCutShort_isMalformed() throws {
        let problem = try #require(Self.problem(Array(Self.header().prefix(20))))

        #expect(problem.code == .malformed)
    }
}
