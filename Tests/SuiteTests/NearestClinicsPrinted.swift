import IOInterface
import Testing
import VerticalsContract
import VerticalsTesting

/// Checks what `svc-supervisor call` or `open` printed for `clinics.nearest` from central
/// Manchester: the command succeeded and printed `count` clinics as JSON, the nearest in Manchester.
func expectNearestInManchester(
    _ result: CommandResult, count: Int, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    #expect(result.status == 0, "\(result.standardError)", sourceLocation: sourceLocation)
    let nearest = try Clinics.NearbyClinics(json: result.standardOutput)
    #expect(nearest.clinics.count == count, sourceLocation: sourceLocation)
    #expect(nearest.clinics.first?.clinic.address.contains("Manchester") == true, sourceLocation: sourceLocation)
}
