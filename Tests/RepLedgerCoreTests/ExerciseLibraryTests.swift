import Foundation
import LedgerTestSupport
import Testing

@testable import RepLedgerCore

@Suite("exercise library: derivation rules, versions, names as people type them")
struct ExerciseLibraryTests {
    static func entry(_ id: String) throws -> FreeExerciseDB.Entry { try #require(FreeExerciseDB.byId[id]) }
    static func derived(_ id: String) throws -> ExerciseDefined { try #require(LibraryDerivation.derive(try entry(id))) }

    @Test("a barbell back squat and a goblet squat share a movement, not a complexity")
    func squatComplexity() throws {
        let barbell = try Self.derived("Barbell_Squat"), goblet = try Self.derived("Goblet_Squat")
        #expect(barbell.canonicalMovement == "squat" && goblet.canonicalMovement == "squat")
        #expect(barbell.complexity == 3 && goblet.complexity == 1)
        #expect(try Self.derived("Snatch").complexity == 3)  // the Olympic lifts ask the most
        #expect(try Self.derived("Leg_Press").complexity == 0)  // a guided machine, a beginner's entry
    }

    @Test("compound before isolation: the same entry rated as isolation is rated lower, for every entry")
    func compoundBeforeIsolation() {
        var compared = 0
        for e in FreeExerciseDB.entries where e.mechanic == "compound" {
            guard let compound = LibraryDerivation.derive(e) else { continue }
            var isolation = e
            isolation.mechanic = "isolation"
            let other = LibraryDerivation.derive(isolation)!
            #expect(compound.rating >= other.rating, "\(e.name)")
            if compound.rating < 80 && other.rating > 20 { #expect(compound.rating > other.rating, "\(e.name)"); compared += 1 }
        }
        #expect(compared > 300)
    }

    @Test(
        "equipment the name implies, kinds from the category, muscles mapped",
        arguments: [
            ("Incline_Dumbbell_Press", [Equipment.dumbbell, .bench], ExerciseKind.strength, Muscle.chest, "incline-press"),
            ("Pullups", [.pullUpBar], .strength, .lats, "vertical-pull"),
            ("Smith_Machine_Bench_Press", [.smithMachine], .strength, .chest, "horizontal-press"),
            ("Running_Treadmill", [.cardioMachine], .cardio, .cardio, "run"),
            ("Plank", [.bodyweight], .isometric, .abs, "anti-extension"),
            ("Calves-SMR", [.other], .recovery, .calves, "soft-tissue"),
            ("Seated_Cable_Rows", [.cable], .strength, .back, "horizontal-pull"),
            ("Dumbbell_Incline_Row", [.dumbbell, .bench], .strength, .back, "chest-supported-row"),
            ("Clean", [.barbell], .explosive, .hamstrings, "olympic-pull"),
        ])
    func mapping(id: String, equipment: [Equipment], kind: ExerciseKind, primary: Muscle, movement: String) throws {
        let x = try Self.derived(id)
        #expect(x.equipment == equipment)
        #expect(x.kind == kind)
        #expect(x.primaryMuscles.first == primary)
        #expect(x.canonicalMovement == movement)
        #expect(!x.custom && (0...100).contains(x.rating) && (0...3).contains(x.complexity))
    }

    @Test("the library: version 1's ids unchanged, no id or name twice, merged entries named as aliases, the left-out ones said")
    func wholeLibrary() throws {
        let library = Ledger.seededLibrary
        #expect(Array(library.order.prefix(ExerciseSeed.all.count)) == ExerciseSeed.all.map(\.exerciseId))
        let all = ExerciseLibrary.exercises(version: 1) + ExerciseLibrary.exercises(version: 2)
        #expect(Set(all.map(\.exerciseId)).count == all.count)
        #expect(Set(all.map { $0.name.lowercased() }).count == all.count)
        #expect(library.order.count == all.count && all.count > 800)
        for (ours, theirs) in ExerciseLibrary.mergedIntoFirstVersion {
            #expect(library.exercises[ours] != nil, "\(ours)")
            #expect(FreeExerciseDB.byId[theirs] != nil, "\(theirs)")
        }
        #expect(LibraryDerivation.leftOut(try Self.entry("Prone_Manual_Hamstring")) == "needs a partner to perform")
        let taken = ExerciseLibrary.mergedIntoFirstVersion.count + FreeExerciseDB.entries.filter { LibraryDerivation.leftOut($0) != nil }.count
        #expect(ExerciseLibrary.secondVersion.count == FreeExerciseDB.entries.count - taken)
        for (version, ids) in ExerciseLibrary.markers {
            #expect(ids.allSatisfy { id in ExerciseLibrary.exercises(version: version).contains { $0.exerciseId == id } })
        }
    }

    @Test("an old ledger gets version 2 appended at its next command, its history untouched; a custom exercise keeps its id")
    func upgrade() throws {
        let t = try MemoryLedger(seeded: false)
        try t.store.append(ExerciseLibrary.events(version: 1))
        var custom = ExerciseDefined()
        custom.exerciseId = "band-row"
        custom.name = "Band Row"
        custom.primaryMuscles = [.back]
        custom.custom = true
        try t.store.append([
            ProposedEvent(eventId: UUID(), event: .exerciseDefined(custom), occurredAt: Timestamp.at("2026-03-01T10:00:00Z"), device: "old")
        ])
        var before: [String] = []
        try t.store.read(EventQuery()) { before.append($0.hash.hex) }
        #expect(ExerciseLibrary.missingVersions(in: try t.ledger.library()) == [2])

        try t.ledger.execute { try $0.setLiftingUnit(.kg) }
        var after: [String] = []
        try t.store.read(EventQuery()) { after.append($0.hash.hex) }
        #expect(Array(after.prefix(before.count)) == before)
        #expect(after.count == before.count + ExerciseLibrary.exercises(version: 2).count + 1)
        let library = try t.ledger.library()
        #expect(ExerciseLibrary.missingVersions(in: library).isEmpty)
        #expect(library.exercises["band-row"]?.definition.custom == true && library.name(of: "band-row") == "Band Row")
        #expect(library.exercises["3-4-sit-up"]?.definition.custom == false)

        try t.ledger.execute { try $0.setLiftingUnit(.lb) }
        #expect(try t.count() == Int64(after.count + 1))
        // Another device's upgrade is the same events, byte for byte: stored once.
        #expect(try t.store.append(ExerciseLibrary.events(version: 2)).alreadyStored == ExerciseLibrary.exercises(version: 2).count)
    }

    @Test("names as people type them: id, name, alias, the database's name, a unique start; several starts are listed, best first")
    func resolution() throws {
        let library = Ledger.seededLibrary
        #expect(try library.resolve("bench").exerciseId == "barbell-bench-press")
        #expect(try library.resolve("OHP").exerciseId == "overhead-press")
        #expect(try library.resolve("rdl").exerciseId == "romanian-deadlift")
        #expect(try library.resolve("Barbell Bench Press - Medium Grip").exerciseId == "barbell-bench-press")
        #expect(try library.resolve("running, treadmill").exerciseId == "running")  // the database's name, punctuation and all
        #expect(try library.resolve("squat (barb").exerciseId == "back-squat")
        #expect(try library.resolve("zottman prea").exerciseId == "zottman-preacher-curl")
        do {
            _ = try library.resolve("incline")
            Issue.record("'incline' resolved to one exercise")
        } catch .ambiguousExercise(_, let matches) {
            #expect(matches.first == "Incline Bench Press (Barbell) [incline-bench-press]", "\(matches)")
            #expect(matches.count == 9 && matches.last!.hasSuffix("more"))
        }
        // A file's names match whole names only: an alias or a start could name the wrong exercise.
        #expect(throws: Refusal.self) { try library.resolveExactly("bench") }
        #expect(try library.resolveExactly("BENCH PRESS (BARBELL)").exerciseId == "barbell-bench-press")
    }

    @Test("inside a workout, a name means the workout's own exercise when it names one of them; else the library's")
    func resolutionWithinAWorkout() throws {
        let library = Ledger.seededLibrary
        let workout = ["triceps-pushdown-rope-attachment", "dumbbell-shoulder-press", "barbell-bench-press"]
        // The library alone gives another pushdown, and finds many shoulder presses.
        #expect(try library.resolve("pushdown").exerciseId != "triceps-pushdown-rope-attachment")
        #expect(throws: Refusal.self) { try library.resolve("shoulder press") }
        #expect(try library.resolve("pushdown", within: workout).exerciseId == "triceps-pushdown-rope-attachment")
        #expect(try library.resolve("shoulder press", within: workout).exerciseId == "dumbbell-shoulder-press")
        #expect(try library.resolve("bench", within: workout).exerciseId == "barbell-bench-press")  // an alias of one of them
        #expect(try library.resolve("tri push", within: workout).exerciseId == "triceps-pushdown-rope-attachment")
        // A name that names none of them is the library's; an exact name always wins.
        #expect(try library.resolve("squat", within: workout).exerciseId == (try library.resolve("squat").exerciseId))
        #expect(try library.resolve("Triceps Pushdown (Cable)", within: workout).exerciseId == "triceps-pushdown")
        #expect(try library.resolve("Pull Up", within: ["band-assisted-pull-up"]).exerciseId == "pull-up")
        #expect(try library.resolve("pull", within: ["band-assisted-pull-up"]).exerciseId == "band-assisted-pull-up")
        // Two of the workout's own: listed, never picked.
        do {
            _ = try library.resolve("press", within: workout)
            Issue.record("'press' picked one of two presses in the workout")
        } catch .ambiguousExercise(_, let matches) {
            #expect(matches == ["Seated Shoulder Press (Dumbbell) [dumbbell-shoulder-press]", "Bench Press (Barbell) [barbell-bench-press]"])
        }
    }
}

@Suite("assisted exercises in the languages of the exports")
struct AssistedNamesTests {
    @Test("an assisted exercise is found by the word in each language people export in, in any case; others are not")
    func assistedWords() {
        for name in [
            "Pull Up (Assisted)", "Band Assisted Pull-Up", "Barra Fixa (Assistida)", "Dominada (asistida)", "Fondos Asistidos",
            "Trazioni assistite", "Traction assistée", "Klimmzug (unterstützt)", "Geassisteerde optrekking", "PULL UP ASSISTED",
        ] {
            #expect(LibraryState.isAssisted(name: name), "\(name)")
        }
        for name in ["Bench Press (Barbell)", "Assistant coach's squat", "Lat Pulldown", "Stütz", "Resistance band curl"] {
            #expect(!LibraryState.isAssisted(name: name), "\(name)")
        }
    }
}
