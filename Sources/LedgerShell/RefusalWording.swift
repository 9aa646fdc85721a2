import RepLedgerCore

/// What the CLI prints for a refusal: the refusal's words, and where a
/// person at a shell finds what was missing (the command that lists it, the
/// option that allows it).
extension Refusal {
    public var shellMessage: String {
        switch self {
        case .unknownExercise(_, let near):
            return description + (near.isEmpty ? ". " : " ") + "See `ledger exercise list`, or add it with `ledger exercise add`"
        case .ambiguousExercise(let e, let m):
            return "'\(e)' matches several exercises (\(m.joined(separator: ", "))); type more of the name, or give an id from `ledger exercise list`"
        case .grantEndsBeforeNow(let until):
            return "the grant would end at \(until.iso8601), before now: give a later --until"
        case .unknownWorkout:
            return description + ". See `ledger history` for workout ids, or start one with `ledger workout start`"
        case .workoutFinished(let w):
            return "workout \(w.lowercased) is finished. To change it anyway, repeat the command with --history-edit"
        case .unknownSet:
            return description + ". See `ledger history --json` for set ids"
        case .setLacksMeasure(_, let kind):
            let give: String
            switch kind {
            case .strength, .explosive: give = "give --reps, e.g. --reps 8"
            case .cardio: give = "give --duration or --distance, e.g. --duration 25m or --distance 5km"
            case .isometric: give = "give --duration, e.g. --duration 1m30s or 90"
            case .mobility: give = "give --reps or --duration"
            case .recovery: give = "give --duration, e.g. --duration 10m"
            }
            return description + "; " + give
        case .noChangesGiven:
            return "nothing to change: give at least one of --reps, --weight, --rpe, --rir, --tempo, --type, --notes"
        case .unknownTemplate(_, let near):
            return description + (near.isEmpty ? ". " : " ") + "See `ledger template list` for your templates and imported routines"
        case .mergeKindsDiffer(let a, _, _, _):
            return description + "; merge into an exercise of the same kind, or correct the kind first (`ledger exercise edit \"\(a)\" --kind K`)"
        case .unknownTransaction:
            return description + ". See `ledger entitlements --json`"
        case .unknownEvent:
            return description + ". See `ledger log` for positions and ids"
        case .setAlreadyCompleted(let s):
            return "set \(s) is completed already; correct its values with `ledger workout edit-set`, or un-complete it first"
        case .unknownProgram:
            return description + ". See `ledger program list`"
        case .wrongDocumentKind(let found, _): return description + ": use `ledger \(found) import`"
        case .documentExerciseMissing(let name):
            return "the document is refused: it names an exercise this ledger lacks: \(name) (add it with `ledger exercise add`)"
        case .workingWeightNeeded(let x): return "no planned working set of \(x) has a weight: give the working weight with --weight"
        case .moduleNeedsExercises: return "a module needs at least one --exercise"
        case .questionnaireNeeded: return "no questionnaire answered yet: run `ledger program questionnaire` first"
        case .noTestedMax(let x): return "no tested max for \(x): record one with `ledger settings one-rep-max \"\(x)\" WEIGHT`"
        case .workoutInProgress(let w, _):
            return fact
                + ": `ledger workout finish \(w.lowercased.prefix(8))` or `discard` it first, or repeat with --also to start another alongside it"
        case .finishTimeNeeded(_, let last, _):
            return fact + "; repeat with --at \(last.iso8601) (its last activity), or --at the time you stopped"
        case .setTimeNeeded(_, let last, _):
            return fact + "; repeat with --at the time you did the set (its last activity: \(last.iso8601)), or --at now if you are training now"
        default:
            return description
        }
    }
}
