/// The FSRS-6 spaced-repetition scheduler, exactly as the `fsrs` package on
/// PyPI (py-fsrs 6.x) computes it with `Scheduler(desired_retention: R,
/// learning_steps=(), relearning_steps=(), maximum_interval=36500,
/// enable_fuzzing=False)`: no learning steps, so every item is in the review
/// state from its first review, and no fuzz, so the schedule is a pure
/// function of the reviews.
///
/// ```swift
/// let fsrs = try FSRSScheduler(desiredRetention: 0.85)         // the default parameters
/// var options = StateOptions(user: "u-42")
/// options.scheduler = fsrs                                      // `review` of the state uses it
/// ```
public struct FSRSScheduler: Sendable, Hashable {
    /// The 21 parameters `w[0]` … `w[20]` (FSRS-6).
    public let parameters: [Double]
    /// The probability of recall an item is scheduled for (0.9 by default).
    public let desiredRetention: Double
    /// The longest interval, in days.
    public let maximumInterval: Int

    /// `-w[20]`: the forgetting curve's decay.
    let decay: Double
    /// `0.9^(1/decay) - 1`: the curve's factor (so that R = 0.9 when t = S).
    let factor: Double
    /// `R^(1/decay) - 1`, the interval's factor for the desired retention `R`.
    let retentionFactor: Double
    /// The initial difficulty of an Easy rating, unclamped: the mean the difficulty reverts to.
    let easyDifficulty: Double

    /// py-fsrs's `DEFAULT_PARAMETERS` (FSRS-6, `fsrs` 6.x).
    public static let defaultParameters: [Double] = [
        0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796,
        1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542,
    ]

    /// py-fsrs's `LOWER_BOUNDS_PARAMETERS`: the least value of each parameter.
    public static let lowerBounds: [Double] = [
        0.001, 0.001, 0.001, 0.001, 1.0, 0.001, 0.001, 0.001, 0.0, 0.0, 0.001,
        0.001, 0.001, 0.001, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.1,
    ]

    /// py-fsrs's `UPPER_BOUNDS_PARAMETERS`: the greatest value of each parameter.
    public static let upperBounds: [Double] = [
        100.0, 100.0, 100.0, 100.0, 10.0, 4.0, 4.0, 0.75, 4.5, 0.8, 3.5,
        5.0, 0.25, 0.9, 4.0, 1.0, 6.0, 2.0, 2.0, 0.8, 0.8,
    ]

    /// py-fsrs's default and the only one it ships: 36,500 days.
    public static let defaultMaximumInterval = 36_500

    /// The default retention, 0.9, and the default parameters.
    public static let standard = FSRSScheduler(checked: defaultParameters, desiredRetention: 0.9,
                                               maximumInterval: defaultMaximumInterval)

    /// A scheduler with these parameters and retention.
    ///
    /// Throws ``FSRSError`` naming the parameter when there are not 21 of
    /// them or one is outside py-fsrs's bounds (``lowerBounds``,
    /// ``upperBounds``), and when `desiredRetention` is not strictly between
    /// 0 and 1.
    public init(parameters: [Double] = defaultParameters, desiredRetention: Double = 0.9) throws(FSRSError) {
        guard parameters.count == Self.defaultParameters.count else {
            throw FSRSError("expected \(Self.defaultParameters.count) parameters, got \(parameters.count)")
        }
        var outOfBounds: [String] = []
        for (i, w) in parameters.enumerated() where !(Self.lowerBounds[i] <= w && w <= Self.upperBounds[i]) {
            outOfBounds.append("parameters[\(i)] = \(w) is out of bounds (\(Self.lowerBounds[i]) to \(Self.upperBounds[i]))")
        }
        guard outOfBounds.isEmpty else { throw FSRSError(outOfBounds.joined(separator: "; ")) }
        guard desiredRetention > 0, desiredRetention < 1 else {
            throw FSRSError("the desired retention must be greater than 0 and less than 1, got \(desiredRetention)")
        }
        self.init(checked: parameters, desiredRetention: desiredRetention, maximumInterval: Self.defaultMaximumInterval)
    }

    /// Makes a scheduler from checked values; the derived constants are
    /// computed as py-fsrs computes them (same operations, same order).
    private init(checked parameters: [Double], desiredRetention: Double, maximumInterval: Int) {
        self.parameters = parameters
        self.desiredRetention = desiredRetention
        self.maximumInterval = maximumInterval
        decay = -parameters[20]
        factor = LibM.power(0.9, 1 / decay) - 1
        retentionFactor = LibM.power(desiredRetention, 1 / decay) - 1
        easyDifficulty = parameters[4] - LibM.power(LibM.e, parameters[5] * Double(ReviewRating.easy.rawValue - 1)) + 1
    }
}

/// Why a scheduler cannot be made: a parameter out of bounds, a count other
/// than 21, a retention outside (0, 1), or a parameters file that is not a
/// JSON array of numbers.
public struct FSRSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the parameter or the position.
    public var message: String

    /// Makes an error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
