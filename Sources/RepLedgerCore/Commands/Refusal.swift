import Foundation

/// A command refused by a domain rule. Nothing was appended; the message says
/// what to do instead. The CLI exits 1 with `error: <message>`.
public enum Refusal: Error, Equatable, CustomStringConvertible {
    case invalidWeight(String, reason: String)
    case unknownUnit(String)
    case repsOutOfRange(Int)
    case invalidRPE(Double)
    case invalidMeasure(String, reason: String)
    /// A set without what its exercise's kind measures (reps for strength, a duration for a hold, …).
    case setLacksMeasure(exercise: String, kind: ExerciseKind)
    case unknownSetType(String)
    case unknownExercise(String, suggestions: [String] = [])
    case ambiguousExercise(String, matches: [String])
    case exerciseArchived(String)
    case exerciseExists(name: String, exerciseId: String)
    case invalidName(String)
    /// A value other than a name that a rule refuses (an analysis's text, a note's, an assignment, muscles); the
    /// sentence says what it needs.
    case invalidInput(String)
    /// A note (a workout's, an exercise's or a set's) longer than `SetValidation.noteLimit` characters.
    case noteTooLong(characters: Int)
    case unknownVocabulary(kind: String, value: String, allowed: [String])
    case unknownWorkout(String)
    case ambiguousWorkout(String, matches: [String])
    case workoutFinished(UUID)
    case workoutDiscarded(UUID)
    case workoutNotRunning(UUID, status: String)
    case unknownSet(String, workout: UUID)
    case ambiguousSet(String, matches: [String])
    case exerciseNotInWorkout(String, workout: UUID)
    case sameExercise(String)
    /// `exercise merge` of an exercise into itself (or into one it was merged into already).
    case mergeIntoItself(String)
    /// `exercise merge` of exercises measured differently (a run into a press).
    case mergeKindsDiffer(String, ExerciseKind, into: String, ExerciseKind)
    case invalidTime(String)
    /// What the command asks for is how things stand already.
    case nothingToChange
    /// An edit that names no field to change.
    case noChangesGiven
    /// No template (or, to start a workout, routine) by that name; the names close to it.
    case unknownTemplate(String, suggestions: [String] = [])
    case ambiguousTemplate(String, matches: [String])
    case templateLimit(limit: Int, products: [Product])
    case invalidTemplateOrder(reason: String)
    case unknownTransaction(String)
    case invalidPurchase(reason: String)
    /// An operator's Coach grant that would end at or before the time it is given.
    case grantEndsBeforeNow(until: Timestamp)
    case malformedRange(String)
    case unknownEvent(String)
    case setAlreadyCompleted(String)
    case invalidProgram(String)
    case unknownProgram(String)
    /// A shared template or program file that cannot be imported, and why.
    case invalidDocument(String)
    /// A shared file of another kind than asked for (a template given as a program).
    case wrongDocumentKind(found: String, expected: String)
    /// A shared document names an exercise this ledger does not have.
    case documentExerciseMissing(String)
    /// A warm-up ramp with no working weight to ramp to.
    case workingWeightNeeded(exercise: String)
    /// A module defined with no exercise.
    case moduleNeedsExercises
    /// A program asked for before any questionnaire was answered.
    case questionnaireNeeded
    /// A percentage of a tested max for an exercise with none recorded.
    case noTestedMax(exercise: String)
    /// A permanent action asked for without its confirmation flag.
    case confirmationNeeded(String)
    case setNotCompleted(String)
    /// Another workout is in progress: a new one starts only alongside it on purpose.
    case workoutInProgress(UUID, name: String)
    /// Finishing now, with no time given, would count hours after the workout's last activity.
    case finishTimeNeeded(UUID, lastActivity: Timestamp, idleMinutes: Int64)
    /// A set logged with no time given into a workout idle past the limit: "now" is a backfill's time.
    case setTimeNeeded(UUID, lastActivity: Timestamp, idleMinutes: Int64)
    /// `workout rest` adjusting or dismissing when no rest is counting down.
    case noRestTimer(UUID)
    /// `workout rest W pause` on a held timer, or `resume` on one that is not held.
    case restHeld(UUID, alreadyHeld: Bool)
    /// Repeating the last workout with no finished workout in the log.
    case nothingToRepeat

    /// The stable name of the refusal (the server's `error.code`).
    public var code: String {
        switch self {
        case .invalidWeight: return "invalidWeight"
        case .unknownUnit: return "unknownUnit"
        case .repsOutOfRange: return "repsOutOfRange"
        case .invalidRPE: return "invalidRPE"
        case .invalidMeasure, .setLacksMeasure: return "invalidMeasure"
        case .unknownSetType: return "unknownSetType"
        case .unknownExercise: return "unknownExercise"
        case .ambiguousExercise: return "ambiguousExercise"
        case .exerciseArchived: return "exerciseArchived"
        case .exerciseExists: return "exerciseExists"
        case .invalidName: return "invalidName"
        case .invalidInput: return "invalidInput"
        case .noteTooLong: return "noteTooLong"
        case .unknownVocabulary: return "unknownVocabulary"
        case .unknownWorkout: return "unknownWorkout"
        case .ambiguousWorkout: return "ambiguousWorkout"
        case .workoutFinished: return "workoutFinished"
        case .workoutDiscarded: return "workoutDiscarded"
        case .workoutNotRunning: return "workoutNotRunning"
        case .unknownSet: return "unknownSet"
        case .ambiguousSet: return "ambiguousSet"
        case .exerciseNotInWorkout: return "exerciseNotInWorkout"
        case .sameExercise: return "sameExercise"
        case .mergeIntoItself: return "mergeIntoItself"
        case .mergeKindsDiffer: return "mergeKindsDiffer"
        case .invalidTime: return "invalidTime"
        case .nothingToChange: return "nothingToChange"
        case .nothingToRepeat: return "nothingToRepeat"
        case .noChangesGiven: return "noChangesGiven"
        case .unknownTemplate: return "unknownTemplate"
        case .ambiguousTemplate: return "ambiguousTemplate"
        case .templateLimit: return "templateLimit"
        case .invalidTemplateOrder: return "invalidTemplateOrder"
        case .unknownTransaction: return "unknownTransaction"
        case .invalidPurchase: return "invalidPurchase"
        case .grantEndsBeforeNow: return "grantEndsBeforeNow"
        case .malformedRange: return "malformedRange"
        case .unknownEvent: return "unknownEvent"
        case .setAlreadyCompleted: return "setAlreadyCompleted"
        case .invalidProgram: return "invalidProgram"
        case .invalidDocument, .wrongDocumentKind, .documentExerciseMissing: return "invalidDocument"
        case .workingWeightNeeded, .moduleNeedsExercises, .questionnaireNeeded, .noTestedMax: return "invalidProgram"
        case .unknownProgram: return "unknownProgram"
        case .confirmationNeeded: return "confirmationNeeded"
        case .setNotCompleted: return "setNotCompleted"
        case .finishTimeNeeded: return "finishTimeNeeded"
        case .setTimeNeeded: return "setTimeNeeded"
        case .workoutInProgress: return "workoutInProgress"
        case .noRestTimer: return "noRestTimer"
        case .restHeld(_, let held): return held ? "restAlreadyPaused" : "restNotPaused"
        }
    }

    /// The state behind a refusal whose remedy each edge words its own way
    /// (the CLI names its options, the server the fields to send).
    public var fact: String {
        switch self {
        case .workoutInProgress(let w, let name): return "workout '\(name)' (\(w.lowercased)) is in progress"
        case .finishTimeNeeded(let w, let last, let idle):
            return "workout \(w.lowercased) was last active at \(last.iso8601), \(idle) min ago: finishing it now would count them"
        case .setTimeNeeded(let w, let last, let idle):
            return "workout \(w.lowercased) was last active at \(last.iso8601), \(idle) min ago: a set logged now would count them in it"
        default: return description
        }
    }

    /// What was refused and why, naming no command or option: the server
    /// sends it as is; the CLI adds its own pointers (`shellMessage`).
    public var description: String {
        switch self {
        case .invalidWeight(let t, let r): return "weight '\(t)' is refused: \(r). Give a weight from 0 to 1000 kg, e.g. 80, 80kg or 176.5lb"
        case .unknownUnit(let u): return "unknown unit '\(u)'. Use kg or lb, e.g. 80kg or 176.5lb"
        case .repsOutOfRange(let r): return "reps \(r) is out of range. Give reps from 0 to 1000"
        case .invalidRPE(let r): return "RPE \(r.formatted) is refused. Give an RPE from 1 to 10 in steps of 0.5, e.g. 8 or 8.5"
        case .invalidMeasure(let what, let r): return "\(what) is refused: \(r)"
        case .setLacksMeasure(let x, let kind): return "a set of \(x) (\(kind.rawValue)) is refused: \(SetValidation.needs(kind))"
        case .unknownSetType(let t): return "unknown set type '\(t)'. Use normal, warmup, drop or failure"
        case .unknownExercise(let e, let near): return "no exercise named '\(e)'" + (near.isEmpty ? "" : NearestNames.didYouMean(near))
        case .ambiguousExercise(let e, let m):
            return "'\(e)' matches several exercises (\(m.joined(separator: ", "))); type more of the name, or give its id"
        case .exerciseArchived(let e): return "exercise '\(e)' is archived; pick another exercise"
        case .exerciseExists(let n, let id): return "an exercise named '\(n)' exists already (id \(id)); use it or choose another name"
        case .invalidName(let why): return "the name is refused: \(why)"
        case .invalidInput(let why): return why
        case .noteTooLong(let n): return "the note has \(n) characters: keep a note to \(SetValidation.noteLimit)"
        case .unknownVocabulary(let k, let v, let allowed): return "unknown \(k) '\(v)'. Use one of: \(allowed.joined(separator: ", "))"
        case .unknownWorkout(let w): return "no workout '\(w)'"
        case .ambiguousWorkout(let w, let m): return "'\(w)' matches several workouts (\(m.joined(separator: ", "))); give more of the id"
        case .workoutFinished(let w): return "workout \(w.lowercased) is finished; changing it is a history edit"
        case .workoutDiscarded(let w): return "workout \(w.lowercased) was discarded; it can no longer be changed. Start a new workout"
        case .workoutNotRunning(let w, let s): return "workout \(w.lowercased) is \(s); this needs a running workout"
        case .unknownSet(let s, let w): return "no set '\(s)' in workout \(w.lowercased)"
        case .ambiguousSet(let s, let m): return "'\(s)' matches several sets (\(m.joined(separator: ", "))); give more of the id"
        case .exerciseNotInWorkout(let e, let w): return "exercise '\(e)' is not in workout \(w.lowercased)"
        case .sameExercise(let e): return "cannot swap '\(e)' for itself; name a different exercise"
        case .mergeIntoItself(let e): return "'\(e)' is that exercise already; name two different exercises"
        case .mergeKindsDiffer(let a, let ak, let b, let bk):
            return "\(a) (\(ak.rawValue)) and \(b) (\(bk.rawValue)) are measured differently, so they are not merged"
        case .invalidTime(let t): return "time '\(t)' is not ISO 8601. Use e.g. 2026-11-02T07:30:00+01:00 or 2026-11-02"
        case .nothingToChange: return "nothing to change: it is so already"
        case .nothingToRepeat: return "there is no finished workout to repeat yet"
        case .noChangesGiven: return "nothing to change: give at least one of reps, weight, RPE, RIR, tempo, type or notes"
        case .unknownTemplate(let t, let near): return "no template '\(t)'" + NearestNames.didYouMean(near)
        case .ambiguousTemplate(let t, let m): return "'\(t)' matches several templates (\(m.joined(separator: ", "))); use the template id"
        case .templateLimit(let limit, let products):
            return
                "Free allows \(limit) templates. Upgrade to Pro (\(products.map(\.rawValue).joined(separator: ", "))) for unlimited templates, or delete one first"
        case .invalidTemplateOrder(let r): return "the template order is refused: \(r)"
        case .unknownTransaction(let t): return "no purchase with transaction id '\(t)'"
        case .invalidPurchase(let r): return "the purchase is refused: \(r)"
        case .grantEndsBeforeNow(let until): return "the grant would end at \(until.iso8601), before now: give a later end"
        case .unknownEvent(let e): return "no event '\(e)' in the log"
        case .setAlreadyCompleted(let s):
            return "set \(s) is completed already; correct its values with an edit, or un-complete it first"
        case .setNotCompleted(let s): return "set \(s) is not completed; nothing to un-complete"
        case .invalidProgram(let why): return why
        case .invalidDocument(let why): return "the document is refused: \(why)"
        case .wrongDocumentKind(let found, let expected): return "the document is refused: it is a \(found), not a \(expected)"
        case .documentExerciseMissing(let name):
            return "the document is refused: it names an exercise this ledger lacks: \(name) (add it as a custom exercise first)"
        case .workingWeightNeeded(let x): return "no planned working set of \(x) has a weight: give the working weight"
        case .moduleNeedsExercises: return "a module needs at least one exercise"
        case .questionnaireNeeded: return "no questionnaire answered yet: answer it first"
        case .noTestedMax(let x): return "no tested max for \(x): record one first"
        case .unknownProgram(let p): return "no program '\(p)'"
        case .confirmationNeeded(let what): return what
        case .workoutInProgress:
            return fact + ": finish or discard it first, or start the new one alongside it"
        case .finishTimeNeeded(_, let last, _):
            return fact + "; give the time it ended (its last activity: \(last.iso8601))"
        case .setTimeNeeded(_, let last, _):
            return fact + "; give the time the set was done (the workout's last activity: \(last.iso8601))"
        case .noRestTimer(let w): return "no rest timer is counting down in workout \(w.lowercased): start one first"
        case .restHeld(let w, let held):
            return held
                ? "the rest timer in workout \(w.lowercased) is already paused: resume it or dismiss it"
                : "the rest timer in workout \(w.lowercased) is not paused: it is counting down"
        case .malformedRange(let r): return "rep range '\(r)' is malformed. Give MIN-MAX with 1 ≤ MIN ≤ MAX ≤ 1000, e.g. 8-12"
        }
    }
}
