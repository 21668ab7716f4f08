import Foundation

/// A value reached only through one lock.
///
/// `@unchecked Sendable` is safe here: `value` is private and read or
/// written only inside `withLock`, which holds `lock` (an `NSLock`) for the
/// whole access, so no two threads ever touch it at once. A non-Sendable
/// value (the `LedgerWriter`) is used only inside the closure, never handed out.
final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock.
    func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
