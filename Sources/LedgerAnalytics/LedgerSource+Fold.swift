import Events
import Ledger
import Projections

extension LedgerSource {
    /// The question analysis (`items`) of the attempts started, and the
    /// submissions made, on days `from` ... `to` (nil: unbounded), over every
    /// record of the source: the logs read in turn, or a directory's learner
    /// logs folded in parallel on all cores, each learner dropped once folded.
    ///
    /// `warning` gets each torn tail (a log's once it is read, a directory's
    /// in name order once all are); `progress` is called as each log is read
    /// (not for a directory's learner logs). Throws the first damaged log's
    /// error with `verify`'s message (in a directory, `misrouted` for an event
    /// of another learner), or a log's that cannot be read.
    public func items(from: Day? = nil, to: Day? = nil, progress: ReadProgress? = nil,
                      warning: (ReadWarning) -> Void = { _ in }) throws(LedgerError) -> ItemAnalysis {
        try fold({ ItemsBuilder(from: from, to: to) }, progress: progress, warning: warning).analysis()
    }

    /// The leaderboard of the period (`week` or `month`) that contains `day`,
    /// over every record of the source, as ``items(from:to:progress:warning:)``
    /// reads it; rank it with `LeaderboardBuilder.leaderboard(by:excluding:top:)`.
    public func leaderboard(period: Leaderboard.Period, containing day: Day, progress: ReadProgress? = nil,
                            warning: (ReadWarning) -> Void = { _ in }) throws(LedgerError) -> LeaderboardBuilder {
        try fold({ LeaderboardBuilder(period: period, containing: day) }, progress: progress, warning: warning)
    }

    /// Folds every record of the source into folds `make` makes: the logs in
    /// turn, each record as it is read (`LogReader.read`, each log checked
    /// whole); a directory's learner logs on all cores, each read whole on its
    /// worker's thread (`LedgerDirectory.readLearner`: the `misrouted` check
    /// too) and folded as one learner (`AllLearnersFold.foldLearner`), the
    /// workers' folds then merged. Warnings as ``items(from:to:progress:warning:)`` says.
    package func fold<Fold: AllLearnersFold>(_ make: () -> Fold, progress: ReadProgress?,
                                             warning: (ReadWarning) -> Void) throws(LedgerError) -> Fold {
        switch self {
        case .logs(let logs):
            var fold = make()
            try Self.read(logs, user: nil, forFold: true, progress: progress, warning: warning) { (_, record) in fold.add(record) }
            return fold
        case .directory(let directory):
            var parts = try directory.foldAny(makePartial: { FoldPart(fold: make()) }) { (part, _, log) throws(LedgerError) in
                var summary: LogSummary?
                try part.fold.foldLearner { (add) throws(LedgerError) -> String in
                    var user = ""
                    summary = try LedgerDirectory.readLearner(log, records: true, learnerID: { user = $0 }) { add($0) }
                    return user
                }
                if let tail = summary?.tornTail { part.tornTails.append((log, tail)) }
            }
            let tornTails = parts.flatMap(\.tornTails)
            // Into the first worker's fold, taken out of `parts`: one fold fewer copied while merging.
            var fold = parts.isEmpty ? make() : parts.removeFirst().fold
            for part in parts { fold.merge(part.fold) }
            for (log, tail) in tornTails.sorted(by: { $0.log.name < $1.log.name }) {
                warning(.tornTail(path: log.path, tail))
            }
            return fold
        }
    }
}

/// A worker's part of ``LedgerSource/fold(_:progress:warning:)`` over a directory: its fold and the torn tails it met.
private struct FoldPart<Fold: AllLearnersFold>: Sendable {
    var fold: Fold
    var tornTails: [(log: LearnerLog, tail: TornTail)] = []
}
