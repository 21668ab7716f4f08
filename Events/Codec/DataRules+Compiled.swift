extension DataRules {
    /// A table's rules put as masks over its slots, derived once from the
    /// table (``DataRules/rules``) and never written by hand: which slots
    /// have a text, integer, boolean, enumeration, seconds or items check,
    /// which of them may be left out (optional), and each check's argument.
    /// ``keeps(_:in:_:)`` reads the captures (in L1 after the walk) in one
    /// straight loop per check over the slots that have it: the kind the
    /// check reads, then the rule function the accessor calls
    /// (``TextRule/problem(_:)``, ``FieldRules/integer(_:)`` and
    /// ``FieldRules/keeps(_:min:)``, the spellings' bytes,
    /// ``Seconds/value(ofLiteral:)``). Like the table, it answers only
    /// whether every rule is plainly kept, so the order in which it looks is
    /// not the order of any error (a line it does not keep has its payload
    /// built, which finds the first error).
    struct Compiled {
        /// One slot's check's argument.
        struct Slot {
            /// A text rule's bound and control rule (``Check/text(_:)``).
            var text = TextRule.text
            /// An integer's minimum (``Check/integer(min:)``).
            var minimum = 0
            /// An enumeration's spellings (``Check/enumeration(_:)``).
            var names: Range<Int> = 0..<0
        }

        /// The slots of each check (bit k: slot k).
        let text: UInt16, integer: UInt16, bool: UInt16, enumeration: UInt16, seconds: UInt16, items: UInt16
        /// The slots whose member may be absent or null (it then reads as nil).
        let optional: UInt16
        /// Slot k's argument (nine of them); memory made once, freed with
        /// the table (``DataRules``' `deinit`).
        let slots: UnsafePointer<Slot>

        /// The masks of `rules`; nil when they cannot be put so (a slot
        /// outside the nine, or given two rules), and the table then keeps nothing.
        init?(_ rules: [Rule]) {
            var parts = [Slot](repeating: Slot(), count: 9)
            var text: UInt16 = 0, integer: UInt16 = 0, bool: UInt16 = 0, enumeration: UInt16 = 0, seconds: UInt16 = 0, items: UInt16 = 0
            var optional: UInt16 = 0, seen: UInt16 = 0
            for rule in rules {
                let k = rule.slot
                guard k >= 0, k < 9, seen & (1 << k) == 0 else { return nil }
                let bit: UInt16 = 1 << k
                seen |= bit
                if !rule.required { optional |= bit }
                switch rule.check {
                case .text(let t): text |= bit; parts[k].text = t
                case .integer(let min): integer |= bit; parts[k].minimum = min
                case .bool: bool |= bit
                case .enumeration(let names): enumeration |= bit; parts[k].names = names
                case .seconds: seconds |= bit
                case .items: items |= bit
                }
            }
            self.text = text; self.integer = integer; self.bool = bool; self.enumeration = enumeration
            self.seconds = seconds; self.items = items; self.optional = optional
            let p = UnsafeMutablePointer<Slot>.allocate(capacity: 9)
            p.initialize(from: parts, count: 9)
            slots = UnsafePointer(p)
        }

        /// Whether the captures `c` (read in `s`'s line) keep every rule;
        /// `spellings` are the table's (``DataRules/spellings``).
        @inline(__always) func keeps(_ c: Slots.Reader, in s: JSONScanner, _ spellings: UnsafeBufferPointer<Spelling>) -> Bool {
            // A capture not of the kind its check reads keeps the rule only when absent or null and optional.
            @inline(__always) func leftOut(_ capture: Capture, _ k: Int) -> Bool { !capture.isPresent && optional &>> k & 1 != 0 }
            var m = text
            while m != 0 {
                let k = m.trailingZeroBitCount
                m &= m &- 1
                let capture = c.at(k)
                if capture.kind == .string, !capture.flag {
                    guard slots[k].text.problem(s.raw(capture)) == nil else { return false }
                } else if !leftOut(capture, k) {
                    return false
                }
            }
            m = integer
            while m != 0 {
                let k = m.trailingZeroBitCount
                m &= m &- 1
                let capture = c.at(k)
                if capture.kind == .number, !capture.flag {
                    guard let n = FieldRules.integer(s.raw(capture)), FieldRules.keeps(n, min: slots[k].minimum) else { return false }
                } else if !leftOut(capture, k) {
                    return false
                }
            }
            m = bool
            while m != 0 {
                let k = m.trailingZeroBitCount
                m &= m &- 1
                let capture = c.at(k)
                if capture.kind != .bool, !leftOut(capture, k) { return false }
            }
            m = enumeration
            while m != 0 {
                let k = m.trailingZeroBitCount
                m &= m &- 1
                let capture = c.at(k)
                if capture.kind == .string, !capture.flag {
                    let value = LineSlice(line: s.bytes, start: capture.start, count: capture.end &- capture.start)
                    guard slots[k].names.contains(where: { value.equals(spellings[$0]) }) else { return false }
                } else if !leftOut(capture, k) {
                    return false
                }
            }
            m = seconds
            while m != 0 {
                let k = m.trailingZeroBitCount
                m &= m &- 1
                let capture = c.at(k)
                if capture.kind == .number {
                    guard Seconds.value(ofLiteral: s.raw(capture)) != nil else { return false }
                } else if !leftOut(capture, k) {
                    return false
                }
            }
            m = items
            while m != 0 {
                let k = m.trailingZeroBitCount
                m &= m &- 1
                let capture = c.at(k)
                if capture.kind != .array, !leftOut(capture, k) { return false }
            }
            return true
        }
    }
}
