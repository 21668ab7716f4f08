import Events

/// `--from D` and `--to D`: a range of days, declared once for every command
/// that takes one (`report`, `items`, `audit`); each says what its ends mean.
struct DayRange: Sendable {
    /// `--from D`: the first day.
    let from: Option<Day>
    /// `--to D`: the last day.
    let to: Option<Day>

    /// The pair, with the help of each end.
    init(from: Option<Day>, to: Option<Day>) { (self.from, self.to) = (from, to) }

    /// The pair, with what each end means (`first day`) and what not giving it means.
    init(from: String, byDefault fromDefault: String? = nil, to: String, byDefault toDefault: String? = nil) {
        let first = Option.day("--from", help: from), last = Option.day("--to", help: to)
        self.init(from: fromDefault.map { first.byDefault($0) } ?? first, to: toDefault.map { last.byDefault($0) } ?? last)
    }

    /// The options to list in the command's ``Command/options``.
    var options: [any OptionSpec] { [from, to] }

    /// The days given, checked to be in order ("--to D is before --from D").
    func resolve(_ args: ParsedArguments) throws(CLIError) -> (from: Day?, to: Day?) {
        let (first, last) = (args[from], args[to])
        if let first, let last, last < first { throw .usage("\(to.name) \(last) is before \(from.name) \(first)") }
        return (first, last)
    }
}
