import Events
import Ledger
import Projections

/// The learners a store keeps live (guarded by the store's lock).
struct LiveLearners {
    /// One learner: the projection and who observes it.
    struct Learner {
        var projector: LearnerProjector
        var observers: [Int: AsyncThrowingStream<LearnerState, any Error>.Continuation] = [:]
    }

    /// Keyed by code points: two spellings of a name are two learners.
    var byUser: [ExactString: Learner] = [:]
    private var nextObserver = 0
    /// Set at the store's close: an observer that comes later is ended at once.
    private var closed = false

    /// Folds the events a group appended (`results[k]` of `events[k]`) into
    /// their learners' projections and tells the observers of each learner
    /// the group touched its state: new, or the same when every event of the
    /// learner was already in the log (an idempotent re-send), so a caller
    /// awaiting the state its own append made never waits for a change that
    /// will not come. An event of an untracked learner costs a lookup: its
    /// envelope is not made.
    mutating func apply(_ results: [AppendResult], of events: [NewEvent]) {
        guard !byUser.isEmpty else { return }
        var touched = Set<ExactString>()
        for k in results.indices {
            let user = ExactString(events[k].user)
            guard byUser[user] != nil else { continue }
            touched.insert(user)
            guard let envelope = results[k].envelope else { continue }
            byUser[user]?.projector.apply(envelope)
        }
        for user in touched {
            guard let learner = byUser[user], !learner.observers.isEmpty else { continue }
            let state = learner.projector.state()
            for observer in learner.observers.values { observer.yield(state) }
        }
    }

    /// Adds an observer of a tracked learner and gives it the current state.
    /// Nil when the store is closed (the caller ends the observer, outside the lock).
    mutating func observe(_ user: String, _ observer: AsyncThrowingStream<LearnerState, any Error>.Continuation) -> Int? {
        nextObserver += 1
        if closed { return nil }
        byUser[ExactString(user)]?.observers[nextObserver] = observer
        if let learner = byUser[ExactString(user)] { observer.yield(learner.projector.state()) }
        return nextObserver
    }

    /// Removes an observer.
    mutating func stopObserving(_ user: String, _ id: Int) {
        byUser[ExactString(user)]?.observers[id] = nil
    }

    /// Takes every observer out (to be ended outside the lock: ending one
    /// runs its `onTermination`, which takes the lock again).
    mutating func closeAll() -> [AsyncThrowingStream<LearnerState, any Error>.Continuation] {
        closed = true
        var all: [AsyncThrowingStream<LearnerState, any Error>.Continuation] = []
        for user in byUser.keys {
            all += byUser[user]?.observers.values ?? [:].values
            byUser[user]?.observers = [:]
        }
        return all
    }
}
