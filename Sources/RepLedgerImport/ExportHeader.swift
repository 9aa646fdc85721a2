import Foundation
import RepLedgerCore

/// What a column of a Strong-style export means, whatever language or order
/// its header uses.
enum ExportColumn: String, Sendable, CaseIterable {
    case workoutNumber, date, workout, duration, exercise, setOrder, weight, weightUnit, reps
    case distance, distanceUnit, seconds, notes, workoutNotes, rpe, comment, category
    /// The ledger's own CSV adds these to Strong's columns, so that it reads back whole.
    case workoutEnd, superset, entry
}

/// One language's words for an export's columns and for the markers its
/// set-order column writes instead of a number. Words are kept normalised
/// (`ExportHeader.normalised`): lower case, no accents, punctuation as spaces.
struct ExportLanguage: Sendable {
    var name: String
    var columns: [String: ExportColumn]
    var rest: [String]
    var warmup: [String]
    var drop: [String]
    var failure: [String]
}

extension ExportLanguage {
    /// The languages Strong exports are recognised in. English, French,
    /// German, Spanish (`Rep.`, `Nombre de entrenamiento`) and Simplified
    /// Chinese are from real files; the others follow the
    /// app's words in those languages, with the common synonyms.
    static let all: [ExportLanguage] = [english, french, german, spanish, italian, portuguese, dutch, polish, chinese]

    static let english = ExportLanguage(
        name: "English",
        columns: [
            "date": .date, "workout #": .workoutNumber, "workout": .workout, "workout name": .workout,
            "duration": .duration, "workout duration": .duration, "exercise name": .exercise, "exercise": .exercise,
            "set order": .setOrder, "weight": .weight, "weight unit": .weightUnit, "reps": .reps,
            "distance": .distance, "distance unit": .distanceUnit, "seconds": .seconds, "time": .seconds,
            "notes": .notes, "workout notes": .workoutNotes, "rpe": .rpe, "comment": .comment, "category": .category,
            "set notes": .comment, "workout end": .workoutEnd, "superset": .superset, "exercise #": .entry,
        ],
        rest: ["rest timer", "rest"], warmup: ["w", "warm up", "warmup"], drop: ["d", "drop", "drop set", "dropset"],
        failure: ["f", "failure"])

    static let french = ExportLanguage(
        name: "French",
        columns: [
            "date": .date, "nom de l entrainement": .workout, "duree": .duration, "nom de l exercice": .exercise,
            "ordre de la serie": .setOrder, "poids": .weight, "unite de poids": .weightUnit, "reps": .reps,
            "repetitions": .reps, "rep": .reps, "distance": .distance, "unite de distance": .distanceUnit, "secondes": .seconds,
            "notes": .notes, "notes d entrainement": .workoutNotes, "notes de l entrainement": .workoutNotes, "rpe": .rpe,
        ],
        rest: ["minuteur de repos", "temps de repos", "repos"], warmup: ["e", "echauffement"], drop: ["degressive"],
        failure: ["echec"])

    static let german = ExportLanguage(
        name: "German",
        columns: [
            "datum": .date, "workout name": .workout, "trainingsname": .workout, "dauer": .duration,
            "name der ubung": .exercise, "ubung": .exercise, "reihenfolge festlegen": .setOrder,
            "satzreihenfolge": .setOrder, "gewicht": .weight, "gewichtseinheit": .weightUnit, "wiederh": .reps,
            "wiederholungen": .reps, "entfernung": .distance, "distanz": .distance, "entfernungseinheit": .distanceUnit,
            "sekunden": .seconds, "notizen": .notes, "workout notizen": .workoutNotes, "trainingsnotizen": .workoutNotes,
            "rpe": .rpe,
        ],
        rest: ["ruhezeit", "pause", "pausentimer"], warmup: ["aufwarmen", "aufwarmsatz"], drop: ["dropsatz"],
        failure: ["versagen"])

    static let spanish = ExportLanguage(
        name: "Spanish",
        columns: [
            "fecha": .date, "nombre del entrenamiento": .workout, "nombre de entrenamiento": .workout,
            "duracion": .duration, "nombre del ejercicio": .exercise, "ejercicio": .exercise,
            "orden de la serie": .setOrder, "orden de serie": .setOrder, "peso": .weight, "unidad de peso": .weightUnit,
            "repeticiones": .reps, "reps": .reps, "rep": .reps, "distancia": .distance, "unidad de distancia": .distanceUnit,
            "segundos": .seconds, "notas": .notes, "notas del entrenamiento": .workoutNotes,
            "notas de entrenamiento": .workoutNotes, "rpe": .rpe,
        ],
        rest: ["temporizador de descanso", "descanso"], warmup: ["calentamiento"], drop: ["serie descendente"],
        failure: ["fallo"])

    static let italian = ExportLanguage(
        name: "Italian",
        columns: [
            "data": .date, "nome allenamento": .workout, "nome dell allenamento": .workout, "durata": .duration,
            "nome esercizio": .exercise, "nome dell esercizio": .exercise, "ordine serie": .setOrder,
            "ordine della serie": .setOrder, "peso": .weight, "unita di peso": .weightUnit, "ripetizioni": .reps,
            "rip": .reps, "distanza": .distance, "unita di distanza": .distanceUnit, "secondi": .seconds,
            "note": .notes, "note allenamento": .workoutNotes, "note dell allenamento": .workoutNotes, "rpe": .rpe,
        ],
        rest: ["timer di recupero", "recupero", "riposo"], warmup: ["riscaldamento"], drop: ["serie a scalare"],
        failure: ["cedimento"])

    static let portuguese = ExportLanguage(
        name: "Portuguese",
        columns: [
            "data": .date, "nome do treino": .workout, "duracao": .duration, "nome do exercicio": .exercise,
            "ordem da serie": .setOrder, "ordem das series": .setOrder, "peso": .weight, "unidade de peso": .weightUnit,
            "repeticoes": .reps, "reps": .reps, "rep": .reps, "distancia": .distance, "unidade de distancia": .distanceUnit,
            "segundos": .seconds, "notas": .notes, "observacoes": .notes, "notas do treino": .workoutNotes, "rpe": .rpe,
        ],
        rest: ["temporizador de descanso", "cronometro de descanso", "descanso"], warmup: ["aquecimento"],
        drop: ["serie descendente"], failure: ["falha"])

    static let dutch = ExportLanguage(
        name: "Dutch",
        columns: [
            "datum": .date, "naam training": .workout, "trainingsnaam": .workout, "workoutnaam": .workout,
            "duur": .duration, "naam oefening": .exercise, "naam van de oefening": .exercise, "oefening": .exercise,
            "setvolgorde": .setOrder, "set volgorde": .setOrder, "volgorde": .setOrder, "gewicht": .weight,
            "gewichtseenheid": .weightUnit, "herhalingen": .reps, "herh": .reps, "afstand": .distance,
            "afstandseenheid": .distanceUnit, "seconden": .seconds, "notities": .notes,
            "trainingsnotities": .workoutNotes, "workoutnotities": .workoutNotes, "rpe": .rpe,
        ],
        rest: ["rusttimer", "rust"], warmup: ["opwarming", "warming up"], drop: ["dropset"], failure: ["falen"])

    static let polish = ExportLanguage(
        name: "Polish",
        columns: [
            "data": .date, "nazwa treningu": .workout, "czas trwania": .duration, "nazwa cwiczenia": .exercise,
            "kolejnosc serii": .setOrder, "kolejnosc": .setOrder, "ciezar": .weight, "waga": .weight,
            "jednostka wagi": .weightUnit, "powtorzenia": .reps, "powt": .reps, "dystans": .distance,
            "odleglosc": .distance, "jednostka dystansu": .distanceUnit, "sekundy": .seconds, "notatki": .notes,
            "uwagi": .notes, "notatki treningowe": .workoutNotes, "notatki z treningu": .workoutNotes, "rpe": .rpe,
        ],
        rest: ["minutnik odpoczynku", "odpoczynek", "przerwa"], warmup: ["rozgrzewka"], drop: ["seria opadajaca"],
        failure: ["upadek miesniowy"])
}

extension ExportLanguage {
    /// Simplified Chinese, from a real 12-column header
    /// (`日期,锻炼名称,时长,运动名称,设置顺序,重量,次,距离,秒,备注,锻炼备注,RPE`), with the
    /// Traditional characters of the same words.
    static let chinese = ExportLanguage(
        name: "Chinese",
        columns: [
            "日期": .date, "锻炼名称": .workout, "鍛鍊名稱": .workout, "时长": .duration, "時長": .duration,
            "运动名称": .exercise, "運動名稱": .exercise, "设置顺序": .setOrder, "設置順序": .setOrder, "重量": .weight,
            "重量单位": .weightUnit, "重量單位": .weightUnit, "次": .reps, "次数": .reps, "次數": .reps, "距离": .distance,
            "距離": .distance, "距离单位": .distanceUnit, "距離單位": .distanceUnit, "秒": .seconds, "备注": .notes,
            "備註": .notes, "锻炼备注": .workoutNotes, "鍛鍊備註": .workoutNotes, "rpe": .rpe,
        ],
        rest: ["休息计时器", "休息計時器", "休息"], warmup: ["热身", "熱身"], drop: ["递减组", "遞減組"], failure: ["力竭"])
}

/// A header read by meaning: which column holds what, the units its names
/// carry (`Weight (kg)`, `kg`), the language it is written in, and the
/// columns it has that no vocabulary knows.
struct ExportHeader: Sendable {
    var column: [ExportColumn: Int] = [:]
    /// Units stated by the header itself: `.weight` → "kg", `.distance` → "km", `.duration` → "sec".
    var units: [ExportColumn: String] = [:]
    var language: ExportLanguage
    var ignored: [String] = []
    /// The header cell that states the weight unit, for telling a person why it was used.
    var weightUnitCell: String?

    /// Reads a header, or says which columns it lacks (`missing`) or repeats.
    static func read(_ header: [String], required: [ExportColumn]) -> Result<ExportHeader, HeaderProblem> {
        let cells = header.map { parts(of: $0) }
        var votes = [Int](repeating: 0, count: ExportLanguage.all.count)
        for cell in cells {
            for (i, language) in ExportLanguage.all.enumerated() where language.columns[cell.word] != nil { votes[i] += 1 }
        }
        let best = votes.indices.max { votes[$0] < votes[$1] || (votes[$0] == votes[$1] && $0 > $1) } ?? 0
        var out = ExportHeader(language: ExportLanguage.all[best])
        for (i, cell) in cells.enumerated() {
            guard let meaning = out.language.columns[cell.word] ?? anyLanguage[cell.word] ?? bareUnit[cell.word]?.0 else {
                if !cell.word.isEmpty { out.ignored.append(header[i].trimmingSpaces()) }
                continue
            }
            guard out.column[meaning] == nil else { return .failure(.repeated(header[i].trimmingSpaces())) }
            out.column[meaning] = i
            if let unit = cell.unit ?? bareUnit[cell.word]?.1 {
                out.units[meaning] = unit
                if meaning == .weight { out.weightUnitCell = header[i].trimmingSpaces() }
            }
        }
        let missing = required.filter { out.column[$0] == nil }
        return missing.isEmpty ? .success(out) : .failure(.missing(missing))
    }

    enum HeaderProblem: Error {
        case missing([ExportColumn])
        case repeated(String)
    }

    /// Every language's words, for a header that mixes them (a re-saved file).
    static let anyLanguage: [String: ExportColumn] = {
        var all: [String: ExportColumn] = [:]
        for language in ExportLanguage.all {
            for (word, column) in language.columns where all[word] == nil { all[word] = column }
        }
        return all
    }()

    /// Headers that are nothing but a unit: Strong 2016's `kg` and `km`.
    static let bareUnit: [String: (ExportColumn, String)] = [
        "kg": (.weight, "kg"), "kgs": (.weight, "kg"), "lb": (.weight, "lb"), "lbs": (.weight, "lb"),
        "km": (.distance, "km"), "mi": (.distance, "mi"), "miles": (.distance, "mi"),
    ]

    /// `Weight (kg)` → ("weight", "kg"); `Wiederh.` → ("wiederh", nil).
    static func parts(of cell: String) -> (word: String, unit: String?) {
        var text = cell.trimmingSpaces()
        var unit: String?
        if text.hasSuffix(")"), let open = text.lastIndex(of: "(") {
            unit = normalised(String(text[text.index(after: open)..<text.index(before: text.endIndex)]))
            text = String(text[..<open])
        }
        return (normalised(text), unit)
    }

    /// Lower case, accents and Polish ł folded, every run of other characters one space (`#` kept).
    static func normalised(_ text: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
            .replacingOccurrences(of: "ł", with: "l")
        var out = ""
        var space = false
        for c in folded {
            if c.isLetter || c.isNumber || c == "#" {
                if space, !out.isEmpty { out.append(" ") }
                out.append(c)
                space = false
            } else {
                space = true
            }
        }
        return out
    }

    /// What a set-order value means: a number, a marker of the file's (or any) language, or nothing known.
    enum SetOrder: Equatable {
        case number(Int)
        case type(SetType)
        case rest
        /// A row holding the exercise's note (Strong's `Note`), not a set.
        case note
    }

    /// The set-order word of a note row. Real files write it in English whatever
    /// the header's language; the app's words in the others are taken too.
    static let noteMarkers: Set<String> = ["note", "notes", "nota", "notas", "notiz", "notizen", "notitie", "notatka", "备注", "備註"]

    func setOrder(_ value: String) -> SetOrder? {
        let word = Self.normalised(value)
        if let n = Int(word), n >= 0 { return .number(n) }
        if Self.noteMarkers.contains(word) { return .note }
        for language in [language] + ExportLanguage.all {
            if language.rest.contains(word) { return .rest }
            if language.warmup.contains(word) { return .type(.warmup) }
            if language.drop.contains(word) { return .type(.drop) }
            if language.failure.contains(word) { return .type(.failure) }
        }
        return nil
    }
}

extension ExportColumn {
    /// The English column name, for a refusal that says what a header lacks.
    var englishName: String {
        switch self {
        case .workoutNumber: return "Workout #"
        case .date: return "Date"
        case .workout: return "Workout Name"
        case .duration: return "Duration"
        case .exercise: return "Exercise Name"
        case .setOrder: return "Set Order"
        case .weight: return "Weight"
        case .weightUnit: return "Weight Unit"
        case .reps: return "Reps"
        case .distance: return "Distance"
        case .distanceUnit: return "Distance Unit"
        case .seconds: return "Seconds"
        case .notes: return "Notes"
        case .workoutNotes: return "Workout Notes"
        case .rpe: return "RPE"
        case .comment: return "Comment"
        case .category: return "Category"
        case .workoutEnd: return "Workout End"
        case .superset: return "Superset"
        case .entry: return "Exercise #"
        }
    }
}
