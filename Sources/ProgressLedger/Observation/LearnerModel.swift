#if canImport(Observation)
import Events
import Ledger
import Observation
import Projections

/// A learner's state for SwiftUI: an `@Observable` model a view reads directly.
///
/// ```swift
/// struct DailyQuizButton: View {
///     let model: LearnerModel                      // LearnerModel(store: store, user: "u-42")
///     var body: some View {
///         Button(model.state?.dailyQuiz.status == .inProgress ? "Continue" : "Start") {
///             Task { try await model.append(answerEvent) }
///         }
///         .task { await model.follow() }            // live until the view goes away
///     }
/// }
/// ```
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable
@MainActor
public final class LearnerModel {
    /// The learner.
    public let user: String
    /// The latest state (nil until the store has read the learner's events).
    public private(set) var state: LearnerState?
    /// Why following the learner stopped, if it failed.
    public private(set) var failure: (any Error)?

    @ObservationIgnored private let store: LedgerStore

    /// A model of `user`'s state in `store`.
    public init(store: LedgerStore, user: String) {
        self.store = store
        self.user = user
    }

    /// Follows the learner's state until the store closes or the calling task is cancelled
    /// (in SwiftUI: `.task { await model.follow() }`).
    public func follow() async {
        do {
            for try await next in store.states(of: user) { state = next }
        } catch {
            failure = error
        }
    }

    /// Appends an event of this learner; the state follows once it is durable.
    @discardableResult
    public func append(_ event: NewEvent) async throws(LedgerError) -> AppendResult {
        try await store.append(event)
    }
}
#endif
