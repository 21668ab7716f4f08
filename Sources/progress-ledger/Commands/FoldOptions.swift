import Events
import Ledger
import Projections

/// The options of how one learner's state is folded (`StateOptions`),
/// declared once for the commands that fold it: `state` takes them all,
/// `explain` and `review` the ones their answer depends on. Each default is
/// the library's (``defaults``), so it is written in one place.
enum FoldOptions {
    /// `StateOptions`' own defaults, which the options show and use.
    static let defaults = StateOptions(user: "")

    static let day = Option.day("--day", help: "day D, YYYY-MM-DD").byDefault("the day of U's latest event")
    static let asOf = Option("--as-of", value: "X", help: "keep events with seq <= X (all digits) or at <= X (RFC 3339)") { (text) throws(CLIError) in
        do { return try AsOf(parsing: text) } catch { throw .usage("\(error)") }
    }
    static let catalog = Option("--catalog", value: "FILE", help: "JSON object mapping a skill to content ids, for recommendations")
    static let retryLimit = Option.integer("--retry-limit", help: "daily-quiz retries allowed", range: 0...1_000_000)
        .defaulting(to: defaults.retryLimit)
    static let streakOn = Option<StreakMode>.choice("--streak-on", value: "M",
                                                    help: "daily: finished daily quizzes; any: also other quizzes, completed puzzles and submissions")
        .defaulting(to: defaults.streakOn)
    static let days = Option.integer("--days", help: "history window in days ending at D", range: 1...1_000_000).defaulting(to: defaults.days)
    static let retention = Option.checked("--retention", value: "R", help: "the probability of recall the review items are scheduled for",
                                          takes: "a number greater than 0 and less than 1") { text -> Double? in
        Double(text).flatMap { $0 > 0 && $0 < 1 ? $0 : nil }
    }.defaulting(to: defaults.scheduler.desiredRetention)
    static let budget = Option.checked("--budget", value: "N|all", help: "at most N reviews a day, done ones included; all: every due item",
                                       takes: "a whole number from 0 to 1000000 or 'all'") { text -> ReviewBudget? in
        text == "all" ? ReviewBudget(items: nil) : Int(text).flatMap { (0...1_000_000).contains($0) ? ReviewBudget(items: $0) : nil }
    }.defaulting(to: ReviewBudget(items: defaults.reviewBudget), shown: defaults.reviewBudget.map(String.init) ?? "all")
    /// `--budget`'s value: a number of items, or nil for all.
    struct ReviewBudget: Sendable { var items: Int? }
    static let fsrsParams = Option.nonEmpty("--fsrs-params", value: "FILE", help: "the review schedule's 21 FSRS-6 parameters as a JSON "
        + "array, e.g. fitted by the FSRS optimizer on 'export --format revlog'", what: "a file name").byDefault("FSRS-6's")

    /// Every option of the group, in the help's order (`state`'s).
    static let all: [any OptionSpec] = [day, asOf, catalog, retryLimit, streakOn, days, retention, fsrsParams, budget]

    /// The options given (the learner, `--user`, among them), as the library
    /// takes them; usage errors name the option.
    static func resolve(_ args: ParsedArguments) throws(CLIError) -> StateOptions {
        var options = StateOptions(user: try args.required(Common.user), day: args[day], asOf: args[asOf], retryLimit: args[retryLimit],
                                   streakOn: args[streakOn], days: args[days])
        if let file = args[catalog] {
            let bytes = try readFile(file, what: "catalog")
            do { options.catalog = try Catalog(json: bytes) } catch {
                throw .failure("\(file): \(error)")
            }
        }
        options.scheduler = try scheduler(args)
        options.reviewBudget = args[budget].items
        return options
    }

    /// The options given, and what to read: LOG (`given`) itself, or in a
    /// ledger directory the learner log of `--user` alone, and whether it exists.
    static func learnerLog(_ given: String, _ args: ParsedArguments) throws(CLIError) -> (options: StateOptions, path: String, exists: Bool) {
        let options = try resolve(args)
        let (path, exists) = try LogInput.learnerLog(given, user: options.user)
        return (options, path, exists)
    }

    /// The review scheduler of `--retention` and `--fsrs-params` (read and checked).
    static func scheduler(_ args: ParsedArguments) throws(CLIError) -> FSRSScheduler {
        let retention = args[Self.retention]
        guard let file = args[fsrsParams] else {
            do { return try FSRSScheduler(desiredRetention: retention) } catch { throw .usage("--retention: \(error)") }
        }
        let bytes = try readFile(file, what: "FSRS parameters")
        do {
            return try FSRSScheduler(parameters: try FSRSScheduler.parameters(json: bytes), desiredRetention: retention)
        } catch {
            throw .failure("\(file): FSRS parameters: \(error)")
        }
    }

    /// The whole content of a small file (the catalog, the parameters).
    private static func readFile(_ path: String, what: String) throws(CLIError) -> [UInt8] {
        do { return try SmallFile.read(path) } catch {
            throw .failure("\(error.path): cannot read the \(what): \(error.detail)")
        }
    }
}
