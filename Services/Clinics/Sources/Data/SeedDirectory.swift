import IOInterface
import VerticalsContract

/// The clinic directory a fresh store starts with (migration `v2-seed-directory`), so that
/// a newcomer can try `nearest` at once: 70 clinics across eleven UK cities, all in
/// Europe/London.
///
/// The clinics are made up but plausible: real streets and postcode districts,
/// coordinates near the street, and phone numbers from the ranges Ofcom keeps for
/// drama (020 7946 0xxx, 0161 496 0xxx, …), which never reach a real line.
enum SeedDirectory {
    /// The id of the seed clinic at `index`: `c_0001`, `c_0002`, … (stable, so docs and demos can name them).
    static func id(_ index: Int) -> String {
        let number = String(index + 1)
        return "c_" + String(repeating: "0", count: max(0, 4 - number.count)) + number
    }

    /// Weekly opening hours by kind of clinic.
    enum Hours {
        static func days(_ days: [Clinics.Weekday], _ opens: Int, _ closes: Int) -> [Clinics.OpeningHours] {
            days.map { Clinics.OpeningHours(weekday: $0, opens: opens, closes: closes) }
        }

        static let weekdays: [Clinics.Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday]

        /// A GP surgery: 08:00–18:30 on weekdays.
        static let surgery = days(weekdays, 480, 1110)
        /// A GP surgery with a Saturday-morning clinic, 09:00–12:00.
        static let surgeryWithSaturday = surgery + days([.saturday], 540, 720)
        /// A community pharmacy: 08:30–19:00 weekdays, 09:00–17:30 Saturday, 10:00–16:00 Sunday.
        static let pharmacy = days(weekdays, 510, 1140) + days([.saturday], 540, 1050) + days([.sunday], 600, 960)
        /// A "100-hour" pharmacy: 07:00–23:00 every day.
        static let latePharmacy = days(weekdays + [.saturday, .sunday], 420, 1380)
        /// A dental practice closed for lunch: 08:30–13:00 and 14:00–17:30 on weekdays.
        static let dentist = days(weekdays, 510, 780) + days(weekdays, 840, 1050)
        /// A dental practice that also opens on Saturday mornings, 09:00–13:00.
        static let dentistWithSaturday = dentist + days([.saturday], 540, 780)
        /// Physiotherapy: 07:30–20:00 on weekdays, 08:00–13:00 on Saturday.
        static let physio = days(weekdays, 450, 1200) + days([.saturday], 480, 780)
        /// An optician: 09:00–17:30, Monday to Saturday.
        static let optician = days(weekdays + [.saturday], 540, 1050)
    }

    private static func clinic(
        _ name: String, _ address: String, _ latitude: Double, _ longitude: Double, _ phone: String,
        _ services: [Clinics.Service], _ hours: [Clinics.OpeningHours]
    ) -> ClinicDraft {
        ClinicDraft(
            name: name, address: address, location: Coordinate(latitude: latitude, longitude: longitude),
            timeZone: "Europe/London", phone: phone, services: services, hours: hours)
    }

    /// Every seed clinic, in id order.
    static let clinics: [ClinicDraft] = [
        // London
        clinic(
            "Marylebone Health Centre", "17 Marylebone Road, London NW1 5LT", 51.5226, -0.1571,
            "+44 20 7946 0101", [.gp, .vaccination, .bloodTest], Hours.surgeryWithSaturday),
        clinic(
            "Hill Street Surgery", "12 Hill Street, London W1J 5NB", 51.5081, -0.1464,
            "+44 20 7946 0102", [.gp], Hours.surgery),
        clinic(
            "Piccadilly Late Night Pharmacy", "41 Piccadilly, London W1J 0DS", 51.5087, -0.1373,
            "+44 20 7946 0103", [.pharmacy, .vaccination], Hours.latePharmacy),
        clinic(
            "Camden High Street Pharmacy", "203 Camden High Street, London NW1 7BT", 51.5392, -0.1426,
            "+44 20 7946 0104", [.pharmacy], Hours.pharmacy),
        clinic(
            "Islington Dental Practice", "88 Upper Street, London N1 0NP", 51.5386, -0.1030,
            "+44 20 7946 0105", [.dentist], Hours.dentistWithSaturday),
        clinic(
            "Shoreditch Physiotherapy Clinic", "45 Great Eastern Street, London EC2A 3HP", 51.5256, -0.0815,
            "+44 20 7946 0106", [.physiotherapy], Hours.physio),
        clinic(
            "Brixton Hill Surgery", "14 Brixton Hill, London SW2 1QA", 51.4571, -0.1170,
            "+44 20 7946 0107", [.gp, .vaccination], Hours.surgery),
        clinic(
            "Greenwich Opticians", "27 Greenwich Church Street, London SE10 9BJ", 51.4812, -0.0092,
            "+44 20 7946 0108", [.optician], Hours.optician),
        clinic(
            "Canary Wharf Medical Centre", "1 Canada Square, London E14 5AB", 51.5049, -0.0195,
            "+44 20 7946 0109", [.gp, .physiotherapy, .vaccination, .bloodTest], Hours.surgeryWithSaturday),
        clinic(
            "Hammersmith Broadway Pharmacy", "6 Hammersmith Broadway, London W6 7AL", 51.4925, -0.2236,
            "+44 20 7946 0110", [.pharmacy, .vaccination], Hours.pharmacy),
        clinic(
            "Stratford Village Dental Care", "92 The Grove, London E15 1NS", 51.5433, 0.0017,
            "+44 20 7946 0111", [.dentist], Hours.dentist),
        clinic(
            "Clapham Common Surgery", "151 Clapham High Street, London SW4 7SS", 51.4640, -0.1325,
            "+44 20 7946 0112", [.gp, .bloodTest], Hours.surgery),
        clinic(
            "Kensington High Street Pharmacy", "180 Kensington High Street, London W8 7RG", 51.5014, -0.1925,
            "+44 20 7946 0113", [.pharmacy], Hours.latePharmacy),
        // Manchester and Salford
        clinic(
            "Piccadilly Gardens Medical Practice", "24 Piccadilly, Manchester M1 1LU", 53.4810, -2.2369,
            "+44 161 496 0201", [.gp, .vaccination, .bloodTest], Hours.surgeryWithSaturday),
        clinic(
            "Deansgate Pharmacy", "301 Deansgate, Manchester M3 4LQ", 53.4769, -2.2513,
            "+44 161 496 0202", [.pharmacy], Hours.latePharmacy),
        clinic(
            "Oxford Road Dental Centre", "128 Oxford Road, Manchester M13 9GP", 53.4643, -2.2299,
            "+44 161 496 0203", [.dentist], Hours.dentist),
        clinic(
            "Didsbury Village Surgery", "712 Wilmslow Road, Manchester M20 2DW", 53.4166, -2.2309,
            "+44 161 496 0204", [.gp], Hours.surgery),
        clinic(
            "Chorlton Pharmacy", "521 Barlow Moor Road, Manchester M21 8AQ", 53.4418, -2.2770,
            "+44 161 496 0205", [.pharmacy, .vaccination], Hours.pharmacy),
        clinic(
            "Ancoats Physiotherapy", "9 Blossom Street, Manchester M4 6AJ", 53.4850, -2.2262,
            "+44 161 496 0206", [.physiotherapy], Hours.physio),
        clinic(
            "Salford Quays Eye Care", "The Lowry Outlet, Salford M50 3AH", 53.4714, -2.2954,
            "+44 161 496 0207", [.optician], Hours.optician),
        // Birmingham
        clinic(
            "Colmore Row Surgery", "55 Colmore Row, Birmingham B3 2AA", 52.4815, -1.8998,
            "+44 121 496 0301", [.gp, .bloodTest], Hours.surgery),
        clinic(
            "New Street Pharmacy", "140 New Street, Birmingham B2 4HN", 52.4786, -1.8976,
            "+44 121 496 0302", [.pharmacy], Hours.latePharmacy),
        clinic(
            "Edgbaston Dental Practice", "34 Harborne Road, Birmingham B15 3AA", 52.4700, -1.9250,
            "+44 121 496 0303", [.dentist], Hours.dentistWithSaturday),
        clinic(
            "Moseley Medical Centre", "21 Salisbury Road, Birmingham B13 8JS", 52.4468, -1.8874,
            "+44 121 496 0304", [.gp, .vaccination], Hours.surgeryWithSaturday),
        clinic(
            "Digbeth Pharmacy", "87 High Street Deritend, Birmingham B12 0LH", 52.4750, -1.8850,
            "+44 121 496 0305", [.pharmacy, .vaccination], Hours.pharmacy),
        clinic(
            "Jewellery Quarter Physio", "12 Vyse Street, Birmingham B18 6LT", 52.4890, -1.9100,
            "+44 121 496 0306", [.physiotherapy], Hours.physio),
        clinic(
            "Selly Oak Health Centre", "Bristol Road, Birmingham B29 6JD", 52.4395, -1.9350,
            "+44 121 496 0307", [.gp, .vaccination, .bloodTest], Hours.surgery),
        // Leeds
        clinic(
            "Park Square Surgery", "8 Park Square East, Leeds LS1 2LH", 53.7990, -1.5530,
            "+44 113 496 0401", [.gp], Hours.surgery),
        clinic(
            "Briggate Pharmacy", "77 Briggate, Leeds LS1 6LH", 53.7980, -1.5410,
            "+44 113 496 0402", [.pharmacy, .vaccination], Hours.latePharmacy),
        clinic(
            "Headingley Dental Surgery", "41 North Lane, Leeds LS6 3HU", 53.8195, -1.5780,
            "+44 113 496 0403", [.dentist], Hours.dentist),
        clinic(
            "Chapel Allerton Medical Centre", "Town Street, Leeds LS7 4NB", 53.8290, -1.5370,
            "+44 113 496 0404", [.gp, .bloodTest], Hours.surgeryWithSaturday),
        clinic(
            "Kirkstall Road Pharmacy", "220 Kirkstall Road, Leeds LS4 2AQ", 53.8030, -1.5800,
            "+44 113 496 0405", [.pharmacy], Hours.pharmacy),
        clinic(
            "Roundhay Opticians", "5 Street Lane, Leeds LS8 1BW", 53.8330, -1.5250,
            "+44 113 496 0406", [.optician], Hours.optician),
        // Glasgow
        clinic(
            "Buchanan Street Medical Practice", "150 Buchanan Street, Glasgow G1 2LW", 55.8620, -4.2540,
            "+44 141 496 0501", [.gp, .vaccination], Hours.surgeryWithSaturday),
        clinic(
            "Sauchiehall Street Pharmacy", "310 Sauchiehall Street, Glasgow G2 3JA", 55.8655, -4.2650,
            "+44 141 496 0502", [.pharmacy], Hours.latePharmacy),
        clinic(
            "West End Dental Care", "412 Byres Road, Glasgow G12 8AS", 55.8750, -4.2930,
            "+44 141 496 0503", [.dentist], Hours.dentist),
        clinic(
            "Merchant City Physiotherapy", "60 Candleriggs, Glasgow G1 1LE", 55.8590, -4.2440,
            "+44 141 496 0504", [.physiotherapy], Hours.physio),
        clinic(
            "Shawlands Health Centre", "19 Kilmarnock Road, Glasgow G41 3YR", 55.8290, -4.2830,
            "+44 141 496 0505", [.gp, .bloodTest], Hours.surgery),
        clinic(
            "Dennistoun Pharmacy", "521 Duke Street, Glasgow G31 1DL", 55.8590, -4.2180,
            "+44 141 496 0506", [.pharmacy, .vaccination], Hours.pharmacy),
        // Edinburgh
        clinic(
            "Princes Street Surgery", "101 Princes Street, Edinburgh EH2 3AA", 55.9520, -3.1990,
            "+44 131 496 0601", [.gp], Hours.surgery),
        clinic(
            "Leith Walk Pharmacy", "168 Leith Walk, Edinburgh EH6 5EA", 55.9650, -3.1760,
            "+44 131 496 0602", [.pharmacy, .vaccination], Hours.pharmacy),
        clinic(
            "Bruntsfield Dental Practice", "12 Bruntsfield Place, Edinburgh EH10 4HN", 55.9380, -3.2070,
            "+44 131 496 0603", [.dentist], Hours.dentistWithSaturday),
        clinic(
            "Stockbridge Medical Centre", "1 India Place, Edinburgh EH3 6EH", 55.9570, -3.2090,
            "+44 131 496 0604", [.gp, .vaccination, .bloodTest], Hours.surgeryWithSaturday),
        clinic(
            "Royal Mile Pharmacy", "230 High Street, Edinburgh EH1 1PL", 55.9500, -3.1880,
            "+44 131 496 0605", [.pharmacy], Hours.latePharmacy),
        clinic(
            "Morningside Eye Centre", "244 Morningside Road, Edinburgh EH10 4QP", 55.9290, -3.2100,
            "+44 131 496 0606", [.optician], Hours.optician),
        // Bristol
        clinic(
            "Clifton Village Surgery", "30 Princess Victoria Street, Bristol BS8 4BZ", 51.4560, -2.6190,
            "+44 117 496 0701", [.gp], Hours.surgery),
        clinic(
            "Broadmead Pharmacy", "44 Broadmead, Bristol BS1 3HA", 51.4580, -2.5870,
            "+44 117 496 0702", [.pharmacy, .vaccination], Hours.latePharmacy),
        clinic(
            "Gloucester Road Dental Practice", "211 Gloucester Road, Bristol BS7 8NN", 51.4740, -2.5900,
            "+44 117 496 0703", [.dentist], Hours.dentist),
        clinic(
            "Harbourside Physiotherapy", "3 Canons Way, Bristol BS1 5LL", 51.4500, -2.5990,
            "+44 117 496 0704", [.physiotherapy], Hours.physio),
        clinic(
            "Bedminster Health Centre", "112 East Street, Bristol BS3 4EY", 51.4400, -2.5960,
            "+44 117 496 0705", [.gp, .vaccination, .bloodTest], Hours.surgeryWithSaturday),
        clinic(
            "Southville Pharmacy", "190 North Street, Bristol BS3 1JF", 51.4410, -2.6060,
            "+44 117 496 0706", [.pharmacy], Hours.pharmacy),
        // Cardiff
        clinic(
            "Queen Street Medical Centre", "68 Queen Street, Cardiff CF10 2GR", 51.4820, -3.1730,
            "+44 29 2018 0801", [.gp, .vaccination], Hours.surgeryWithSaturday),
        clinic(
            "St Mary Street Pharmacy", "95 St Mary Street, Cardiff CF10 1DX", 51.4780, -3.1770,
            "+44 29 2018 0802", [.pharmacy], Hours.latePharmacy),
        clinic(
            "Canton Dental Surgery", "230 Cowbridge Road East, Cardiff CF5 1GY", 51.4810, -3.2050,
            "+44 29 2018 0803", [.dentist], Hours.dentist),
        clinic(
            "Roath Park Surgery", "15 Albany Road, Cardiff CF24 3RN", 51.4960, -3.1650,
            "+44 29 2018 0804", [.gp, .bloodTest], Hours.surgery),
        clinic(
            "Cathays Pharmacy", "120 Crwys Road, Cardiff CF24 4NR", 51.4940, -3.1790,
            "+44 29 2018 0805", [.pharmacy, .vaccination], Hours.pharmacy),
        // Liverpool
        clinic(
            "Bold Street Surgery", "72 Bold Street, Liverpool L1 4HR", 53.4020, -2.9790,
            "+44 151 496 0901", [.gp, .vaccination], Hours.surgery),
        clinic(
            "Lord Street Pharmacy", "25 Lord Street, Liverpool L2 1TA", 53.4060, -2.9870,
            "+44 151 496 0902", [.pharmacy], Hours.latePharmacy),
        clinic(
            "Allerton Road Dental Practice", "95 Allerton Road, Liverpool L18 2DA", 53.3790, -2.9100,
            "+44 151 496 0903", [.dentist], Hours.dentistWithSaturday),
        clinic(
            "Albert Dock Physiotherapy", "Edward Pavilion, Albert Dock, Liverpool L3 4AF", 53.4000, -2.9920,
            "+44 151 496 0904", [.physiotherapy], Hours.physio),
        clinic(
            "Smithdown Road Health Centre", "301 Smithdown Road, Liverpool L15 5AE", 53.3920, -2.9390,
            "+44 151 496 0905", [.gp, .vaccination, .bloodTest], Hours.surgeryWithSaturday),
        clinic(
            "Lark Lane Pharmacy", "40 Lark Lane, Liverpool L17 8UU", 53.3790, -2.9400,
            "+44 151 496 0906", [.pharmacy], Hours.pharmacy),
        // Newcastle upon Tyne
        clinic(
            "Grey Street Surgery", "54 Grey Street, Newcastle upon Tyne NE1 6AE", 54.9720, -1.6110,
            "+44 191 498 0101", [.gp], Hours.surgery),
        clinic(
            "Northumberland Street Pharmacy", "88 Northumberland Street, Newcastle upon Tyne NE1 7DF", 54.9760,
            -1.6100, "+44 191 498 0102", [.pharmacy, .vaccination], Hours.latePharmacy),
        clinic(
            "Jesmond Dental Care", "18 Osborne Road, Newcastle upon Tyne NE2 2AA", 54.9880, -1.6040,
            "+44 191 498 0103", [.dentist], Hours.dentist),
        clinic(
            "Heaton Medical Practice", "200 Chillingham Road, Newcastle upon Tyne NE6 5LP", 54.9800, -1.5750,
            "+44 191 498 0104", [.gp, .vaccination, .bloodTest], Hours.surgeryWithSaturday),
        clinic(
            "Quayside Physiotherapy", "12 Sandhill, Newcastle upon Tyne NE1 3AF", 54.9690, -1.6070,
            "+44 191 498 0105", [.physiotherapy], Hours.physio),
        // Sheffield
        clinic(
            "Division Street Surgery", "62 Division Street, Sheffield S1 4GF", 53.3800, -1.4780,
            "+44 114 496 0111", [.gp, .vaccination], Hours.surgery),
        clinic(
            "Ecclesall Road Pharmacy", "412 Ecclesall Road, Sheffield S11 8PJ", 53.3680, -1.4930,
            "+44 114 496 0112", [.pharmacy], Hours.pharmacy),
        clinic(
            "Broomhill Eye Clinic", "183 Whitham Road, Sheffield S10 2SN", 53.3800, -1.5020,
            "+44 114 496 0113", [.optician], Hours.optician),
    ]
}
