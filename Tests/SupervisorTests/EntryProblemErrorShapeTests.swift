import Testing
import VerticalsWire

@testable import VerticalsSupervisor

/// `ProgramWriters.EntryProblem` in the framework's one error shape (`CodedError`): a code for
/// each search-path entry the supervisor cannot check, and the words it reads after the entry.
struct EntryProblemErrorShapeTests {
    @Test(arguments: [
        ("", ProgramWriters.EntryProblem.Code.empty, "is empty, which the loader reads as the working folder"),
        ("lib", .relative, "is relative, which the loader reads from the working folder"),
        ("$HOME/lib", .unknownVariable, "names a variable ($HOME/lib) the supervisor does not expand"),
    ])
    func anEntryThatCannotBeChecked_hasItsCode(entry: String, code: ProgramWriters.EntryProblem.Code, message: String) {
        guard case .failure(let problem) = ProgramWriters.expand(entry, origin: "/opt/a") else {
            Issue.record("\(entry.debugDescription) was expanded")
            return
        }

        #expect(problem.code == code)
        #expect(problem.message == message)
    }
}
