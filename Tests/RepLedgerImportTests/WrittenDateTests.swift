import Foundation
import Testing

@testable import RepLedgerImport

@Suite("Dates as phones write them: month names, 12-hour clocks, CJK forms")
struct WrittenDateTests {
    static func clock(_ text: String) -> String? {
        (try? ImportValues.wallClock(text, line: 2, column: "start_time"))?.text
    }

    @Test("Hevy's forms in the locales and languages the importer reads, each to the same wall clock")
    func forms() {
        let cases: [(String, String)] = [
            ("Apr 12, 2026, 12:29 PM", "2026-04-12 12:29:00"),  // a US phone (hevy_Maxence-create)
            ("Apr 12, 2026, 2:01 PM", "2026-04-12 14:01:00"),
            ("Apr 12, 2026, 12:05 AM", "2026-04-12 00:05:00"),
            ("Apr 2, 2026, 11:59 pm", "2026-04-02 23:59:00"),
            ("12 Apr 2026, 14:29", "2026-04-12 14:29:00"),  // the form of every other Hevy file
            ("12 Apr 2026, 2:29 p.m.", "2026-04-12 14:29:00"),
            ("September 3, 2025 at 1:03 AM", "2025-09-03 01:03:00"),
            ("12 avr. 2026, 14:29", "2026-04-12 14:29:00"),
            ("3 déc. 2025 à 07:15", "2025-12-03 07:15:00"),
            ("12. Okt. 2025, 14:29", "2025-10-12 14:29:00"),
            ("3. März 2025 um 18:00", "2025-03-03 18:00:00"),
            ("12 de abr. de 2026, 14:29", "2026-04-12 14:29:00"),
            ("12 ott 2025, 14:29", "2025-10-12 14:29:00"),
            ("12 de out. de 2025 14:29", "2025-10-12 14:29:00"),
            ("12 mrt 2025 14:29", "2025-03-12 14:29:00"),
            ("12 paź 2025, 14:29", "2025-10-12 14:29:00"),
            ("12 października 2025 14:29:07", "2025-10-12 14:29:07"),
            ("2026年4月12日 下午2:29", "2026-04-12 14:29:00"),
            ("2026年4月12日 14:29", "2026-04-12 14:29:00"),
            ("2026年4月12日 午前9:05", "2026-04-12 09:05:00"),
            ("2026. 4. 12. 오후 2:29", "2026-04-12 14:29:00"),
            ("11 Nis 2026, 13:05", "2026-04-11 13:05:00"),  // Turkish (hevy_canonat2326)
            ("1 Şub 2023, 07:00", "2023-02-01 07:00:00"),
            ("3 Ağu 2024, 18:30", "2024-08-03 18:30:00"),
            ("9 Kasım 2024 21:10", "2024-11-09 21:10:00"),
            ("7 Ara 2022, 19:45", "2022-12-07 19:45:00"),
            ("12 апр. 2026 г., 14:29", "2026-04-12 14:29:00"),  // Russian
            ("3 мая 2025 г. в 18:00", "2025-05-03 18:00:00"),
            ("12 Des 2025, 14:29", "2025-12-12 14:29:00"),  // Indonesian
            ("5 Agu 2025 14:29", "2025-08-05 14:29:00"),
            ("17 may 2024, 06:12", "2024-05-17 06:12:00"),  // Spanish (hevy_ghb72)
            ("7 Set 2023, 10:00", "2023-09-07 10:00:00"),  // Portuguese (hevy_biaazv)
        ]
        for (text, expected) in cases {
            #expect(Self.clock(text) == expected, "\(text)")
        }
    }

    @Test("a form that names no single day and time is refused, never guessed")
    func refusals() {
        for text in [
            "Apr 31, 2026, 1:00 PM",  // no such day
            "Apr 12, 2026, 13:00 PM",  // no 13 o'clock in a 12-hour clock
            "Apr 12, 2026, 0:30 AM",
            "Foo 12, 2026, 1:00 PM",  // no such month
            "Apr 12, 1:00 PM",  // no year
            "12/04/2026, 14:29",  // day or month first: the file does not say
            "Apr 12 2026",  // no time
            "Apr 12, 2026, 1:5 PM",
            "12 Apr 2026 2025, 14:29",
        ] {
            #expect(Self.clock(text) == nil, "\(text)")
        }
    }
}
