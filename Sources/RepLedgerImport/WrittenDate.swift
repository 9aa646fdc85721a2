import Foundation

/// Dates as apps write them for people, in the locale of the phone that
/// exported them: Hevy's `8 Apr 2026, 16:50` and, on a US phone,
/// `Apr 12, 2026, 12:29 PM`; month names in the languages the importer reads
/// (`12 avr. 2026, 14:29`, `12. Okt. 2026, 14:29`, `12 de abr. de 2026`);
/// 12-hour clocks in English and the CJK words (下午, 午後, 오후); and the
/// year-month-day forms of Chinese, Japanese and Korean (`2026年4月12日 14:29`,
/// `2026. 4. 12. 오후 2:29`).
extension WallClock {
    static func parseWritten(_ s: String) -> WallClock? {
        var tokens = WrittenDate.tokens(s)
        guard let (hour, minute, second) = WrittenDate.clock(taking: &tokens), let (year, month, day) = WrittenDate.date(tokens) else {
            return nil
        }
        let w = WallClock(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return w.isValid ? w : nil
    }
}

enum WrittenDate {
    enum HalfDay { case am, pm }

    /// The time of day among a written date's tokens, taken out of them with
    /// the half-day words (`PM`, `下午`) and the fillers between the parts:
    /// `12:29`, `2:01:07`, or `12:29pm` with the half of the day attached.
    static func clock(taking tokens: inout [String]) -> (hour: Int, minute: Int, second: Int)? {
        var half: HalfDay?
        tokens.removeAll { token in
            if let h = halfDay[token] { half = h; return true }
            return fillers.contains(token)
        }
        guard let clockAt = tokens.firstIndex(where: { $0.contains(":") }) else { return nil }
        var clock = tokens.remove(at: clockAt)
        for (word, h) in halfDay where clock.hasSuffix(word) && word.allSatisfy(\.isLetter) {
            clock.removeLast(word.count)
            half = h
        }
        let hms = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard hms.count == 2 || hms.count == 3, hms.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
            hms.dropFirst().allSatisfy({ $0.count == 2 }), hms[0].count <= 2,
            var hour = Int(hms[0]), let minute = Int(hms[1])
        else { return nil }
        let second = hms.count == 3 ? Int(hms[2]) ?? 99 : 0
        if let half {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (half == .pm ? 12 : 0)
        }
        return (hour, minute, second)
    }

    /// The date's three parts from what is left once the clock is taken: a
    /// month name with a day and a four-digit year in either order, or the
    /// CJK year-month-day in numbers.
    static func date(_ tokens: [String]) -> (Int, Int, Int)? {
        let numbers = tokens.compactMap { Int($0) }
        let words = tokens.filter { Int($0) == nil }
        if words.isEmpty {
            // `2026年4月12日` and `2026. 4. 12.`: the year first, then month and day.
            guard numbers.count == 3, numbers[0] >= 1000 else { return nil }
            return (numbers[0], numbers[1], numbers[2])
        }
        guard words.count == 1, numbers.count == 2, let month = months[words[0]] else { return nil }
        let year = numbers.first { $0 >= 1000 }, day = numbers.first { $0 < 1000 }
        guard let year, let day, tokens.filter({ Int($0) != nil && $0.count == 4 }).count == 1 else { return nil }
        return (year, month, day)
    }

    /// Lower case, accents folded, the date's punctuation as spaces; the CJK
    /// year, month and day marks as spaces too, with the half-day words apart.
    static func tokens(_ s: String) -> [String] {
        var text = fold(s)
            .replacingOccurrences(of: "a.m.", with: " am ").replacingOccurrences(of: "p.m.", with: " pm ")
        for mark in ["年", "月", "日", "년", "월", "일"] { text = text.replacingOccurrences(of: mark, with: " ") }
        for word in halfDay.keys where !word.allSatisfy(\.isASCII) { text = text.replacingOccurrences(of: word, with: " \(word) ") }
        return text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "." || $0 == "\u{00A0}" || $0 == "\u{202F}" })
            .map(String.init)
    }

    /// Lower case without accents; Polish ł and Turkish dotless ı as l and i, which folding leaves.
    static func fold(_ s: String) -> String {
        s.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
            .replacingOccurrences(of: "ł", with: "l").replacingOccurrences(of: "ı", with: "i")
    }

    static let halfDay: [String: HalfDay] = [
        "am": .am, "pm": .pm, "上午": .am, "下午": .pm, "午前": .am, "午後": .pm, "오전": .am, "오후": .pm,
    ]

    /// Words between a date's parts: Spanish and Portuguese `de`, `at`, `à`, `um`, `kl`, Russian `г.` (year) and `в`.
    static let fillers: Set<String> = ["de", "at", "a", "um", "kl", "o", "om", "alle", "as", "г", "в"]

    /// Month names and their abbreviations in English, French, German,
    /// Spanish, Italian, Portuguese, Dutch, Polish, Turkish, Russian and
    /// Indonesian (nominative and genitive), the languages Hevy and Strong
    /// write dates in besides the CJK numeric forms; folded as `tokens` folds
    /// text. No two languages give one word two months.
    static let months: [String: Int] = {
        let names: [[String]] = [
            [
                "january", "jan", "janvier", "janv", "januar", "janner", "enero", "ene", "gennaio", "gen", "janeiro", "januari",
                "styczen", "stycznia", "sty", "ocak", "oca", "январь", "января", "янв",
            ],
            [
                "february", "feb", "fevrier", "fevr", "fev", "februar", "febrero", "febbraio", "fevereiro", "februari", "luty",
                "lutego", "lut", "subat", "sub", "февраль", "февраля", "фев", "февр",
            ],
            ["march", "mar", "mars", "marz", "maerz", "mrz", "marzo", "marco", "maart", "mrt", "marzec", "marca", "mart", "март", "марта", "мар"],
            ["april", "apr", "avril", "avr", "abril", "abr", "aprile", "kwiecien", "kwietnia", "kwi", "nisan", "nis", "апрель", "апреля", "апр"],
            ["may", "mai", "mayo", "maggio", "mag", "maio", "mei", "maj", "maja", "mayis", "май", "мая"],
            [
                "june", "jun", "juin", "juni", "junio", "giugno", "giu", "junho", "czerwiec", "czerwca", "cze", "haziran", "haz", "июнь", "июня",
                "июн",
            ],
            [
                "july", "jul", "juillet", "juil", "juli", "julio", "luglio", "lug", "julho", "lipiec", "lipca", "lip", "temmuz", "tem", "июль",
                "июля", "июл",
            ],
            [
                "august", "aug", "aout", "agosto", "ago", "augustus", "sierpien", "sierpnia", "sie", "agustos", "agu", "agt", "август", "августа",
                "авг",
            ],
            [
                "september", "sep", "sept", "septembre", "septiembre", "setiembre", "settembre", "set", "setembro", "wrzesien",
                "wrzesnia", "wrz", "eylul", "eyl", "сентябрь", "сентября", "сен", "сент",
            ],
            [
                "october", "oct", "octobre", "oktober", "okt", "octubre", "ottobre", "ott", "outubro", "out", "pazdziernik",
                "pazdziernika", "paz", "ekim", "eki", "октябрь", "октября", "окт",
            ],
            [
                "november", "nov", "novembre", "noviembre", "novembro", "listopad", "listopada", "lis", "kasim", "kas", "ноябрь", "ноября", "ноя",
                "нояб",
            ],
            [
                "december", "dec", "decembre", "dezember", "dez", "diciembre", "dic", "dicembre", "dezembro", "grudzien", "grudnia",
                "gru", "aralik", "ara", "des", "desember", "декабрь", "декабря", "дек",
            ],
        ]
        var out: [String: Int] = [:]
        for (i, words) in names.enumerated() {
            for w in words.map(fold) {
                precondition(out[w] == nil || out[w] == i + 1, "\(w) names two months")
                out[w] = i + 1
            }
        }
        return out
    }()
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
