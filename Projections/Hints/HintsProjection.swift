import Events

/// The hint balance: grants add, each use takes one unless the balance is 0.
/// Never reset.
package enum HintsProjection {
    /// Folds one step; returns the `hint_overdraw` anomaly when a hint is used at balance 0.
    @discardableResult
    package static func reduce(into state: inout Hints, _ step: Step) -> Anomaly? {
        switch step.effect {
        case .granted(let grant):
            // Saturating: 1,100 grants of 2^53 - 1 hold the balance at 2^63 - 1 (docs/projections.md).
            state.granted.add(saturating: grant.amount)
            let room = Int.max - state.balance
            if grant.amount > room { state.aboveBalance.add(saturating: grant.amount - room) }
            state.balance.add(saturating: grant.amount)
            return nil
        case .hinted(let hint, _):
            state.used.add(saturating: 1)
            switch hint.hint {
            case .fiftyFifty: state.usedFiftyFifty += 1
            case .reveal: state.usedReveal += 1
            }
            guard state.balance > 0 else {
                return Anomaly(seq: step.seq, kind: .hintOverdraw,
                               detail: "\(hint.hint.rawValue) hint used on question \(quoted(hint.question)) of attempt \(quoted(hint.attempt)) with a balance of 0; the balance stays 0")
            }
            if state.aboveBalance > 0 { state.aboveBalance -= 1 } else { state.balance -= 1 }
            return nil
        default:
            return nil
        }
    }
}
