import IOInterface
import VerticalsContract
import VerticalsWire

/// Says whether a clinic offers a service and is open for the whole of a slot, in the
/// clinic's own time zone: what appointments asks before it books.
package struct CheckSlot {
    let world: World

    /// Creates the use case.
    package init(world: World) {
        self.world = world
    }

    /// The verdict on `service` at clinic `clinicID` from `startsAt` up to `endsAt`.
    package func execute(
        clinicID: String, service: Clinics.Service, startsAt: Timestamp, endsAt: Timestamp
    ) async throws -> Clinics.SlotCheck {
        try OpeningSchedule.requireSlot(from: startsAt, to: endsAt)
        let clinic = try await GetClinics(world: world).execute(id: clinicID)
        let offersService = clinic.services.contains(service)
        var reasons: [String] = []
        if !offersService { reasons.append("\(clinic.name) does not offer \(service).") }
        var isOpen = false
        if let schedule = OpeningSchedule(hours: clinic.hours, timeZone: clinic.timeZone) {
            switch try schedule.check(from: startsAt, to: endsAt) {
            case .open: isOpen = true
            case .closed(let reason): reasons.append(reason)
            }
        } else {
            // Only if the host's time-zone database lost a zone that was valid at create time.
            world.logger.error("unknown time zone", metadata: ["clinic": "\(clinic.id)", "zone": "\(clinic.timeZone)"])
            reasons.append(
                "\(clinic.name)'s time zone \(clinic.timeZone) is unknown here, so its hours cannot be checked.")
        }
        return Clinics.SlotCheck(
            clinicID: clinic.id, clinicName: clinic.name, offersService: offersService, isOpen: isOpen,
            reason: reasons.joined(separator: " "))
    }
}
