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
            // One straight loop a check over the slots of its mask (``each(_:_:_:)``), each slot's rule function as before.
            return each(text, c) { k, capture in
                if capture.kind == .string, !capture.flag { return slots[k].text.problem(s.raw(capture)) == nil }
                return leftOut(capture, k)
            } && each(integer, c) { k, capture in
                if capture.kind == .number, !capture.flag {
                    guard let n = FieldRules.integer(s.raw(capture)) else { return false }
                    return FieldRules.keeps(n, min: slots[k].minimum)
                }
                return leftOut(capture, k)
            } && each(bool, c) { k, capture in
                capture.kind == .bool || leftOut(capture, k)
            } && each(enumeration, c) { k, capture in
                if capture.kind == .string, !capture.flag {
                    let value = LineSlice(line: s.bytes, start: capture.start, count: capture.end &- capture.start)
                    return slots[k].names.contains(where: { value.equals(spellings[$0]) })
                }
                return leftOut(capture, k)
            } && each(seconds, c) { k, capture in
                if capture.kind == .number { return Seconds.value(ofLiteral: s.raw(capture)) != nil }
                return leftOut(capture, k)
            } && each(items, c) { k, capture in
                capture.kind == .array || leftOut(capture, k)
            }
        }

        /// Whether `keeps` holds for every slot whose bit is set in `mask`
        /// (lowest slot first), given the slot's number and its capture in `c`.
        @inline(__always) private func each(_ mask: UInt16, _ c: Slots.Reader, _ keeps: (Int, Capture) -> Bool) -> Bool {
            var m = mask
            while m != 0 {
                let k = m.trailingZeroBitCount
                m &= m &- 1
                guard keeps(k, c.at(k)) else { return false }
            }
            return true
        }
    }
}
