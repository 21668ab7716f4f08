import Events
import Projections

/// Folds a built log for its user with the given options.
func fold(_ log: LogBuilder, day: String? = nil, asOf: AsOf? = nil, retryLimit: Int = 1,
          streakOn: StreakMode = .daily, days: Int = 30, catalog: Catalog? = nil, user: String? = nil) -> LearnerState {
    let options = StateOptions(user: user ?? log.user, day: day.map(Tests.day), asOf: asOf, retryLimit: retryLimit,
                               streakOn: streakOn, days: days, catalog: catalog)
    return LearnerState(folding: log.records, options: options)
}

/// Namespace so `fold(day:)` can reach the `day(_:)` helper despite the parameter's name.
enum Tests {
    static func day(_ text: String) -> Day { ProjectionsTests.day(text) }
}

func seconds(_ n: Int64) -> ExactSeconds { ExactSeconds(nanoseconds: n * 1_000_000_000) }
