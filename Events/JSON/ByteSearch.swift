#if arch(x86_64)
import CByteMask
#endif

/// Finds the first byte of a kind sixteen bytes at a time, with SIMD compares
/// (simdjson's first stage, for one string at a time): a block of bytes is
/// compared with each kind at once, the lanes that match are or-ed into one
/// mask, and the first match is the mask's lowest set byte (read as two 64-bit
/// words, no per-byte loop). The kinds are the ones a JSON string ends or
/// changes at: a quote, a backslash, and for a log line a control character or
/// a non-ASCII byte (whose UTF-8 the scanner then checks).
///
/// Only *where* the first such byte is is decided here; what it means (the end
/// of a string, an escape, an error) stays with the scanner that asked. The
/// bytes past the last whole block are looked at one by one, so nothing is read
/// outside the buffer.
///
/// On x86-64 a block's special bytes are one 16-bit mask (SSE2's `pmovmskb`,
/// through the header-only C target CByteMask: Swift's SIMD types have no
/// movemask), the first one its lowest set bit; elsewhere the portable SIMD
/// compares below, read back as two words. Both find the same lane.
enum ByteSearch {
    typealias Block = SIMD16<UInt8>
    typealias Mask = SIMDMask<SIMD16<Int8>>

    @inline(__always) private static func splat(_ b: UInt8) -> Block { Block(repeating: b) }

    /// The lanes of `v` holding a quote or a backslash.
    @inline(__always) private static func quoteOrBackslash(_ v: Block) -> Mask {
        (v .== splat(UInt8(ascii: "\""))) .| (v .== splat(UInt8(ascii: "\\")))
    }

    /// The lanes of `v` holding a quote, a backslash, a byte below 0x20 or one of 0x80 and above.
    @inline(__always) private static func special(_ v: Block) -> Mask {
        quoteOrBackslash(v) .| (v .< splat(0x20)) .| (v .>= splat(0x80))
    }

    /// The index of the lowest lane set in `m`, or nil.
    @inline(__always) private static func firstLane(_ m: Mask) -> Int? {
        let words = unsafeBitCast(m, to: SIMD2<UInt64>.self)
        let low = UInt64(littleEndian: words[0]), high = UInt64(littleEndian: words[1])
        if low != 0 { return low.trailingZeroBitCount &>> 3 }
        if high != 0 { return 8 &+ high.trailingZeroBitCount &>> 3 }
        return nil
    }

    /// The offset of the first quote or backslash at or after `start`, or `bytes.count` if none.
    @inline(__always)
    static func firstQuoteOrBackslash(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        let n = bytes.count
        let (found, at) = inBlocks(of: n, from: start) { k in
            firstLane(quoteOrBackslash(bytes.loadUnaligned(fromByteOffset: k, as: Block.self)))
        }
        if found { return at }
        var k = at
        while k < n, bytes[k] != UInt8(ascii: "\""), bytes[k] != UInt8(ascii: "\\") { k &+= 1 }
        return k
    }

    /// The offset of the first quote, backslash, control character (below
    /// 0x20) or non-ASCII byte at or after `start`, looking at whole blocks of
    /// sixteen only: `start` plus a multiple of 16 past which fewer than 16
    /// bytes are left, when no whole block holds one (the caller looks at the
    /// rest its own way).
    @inline(__always)
    static func firstSpecialInBlocks(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        inBlocks(of: bytes.count, from: start) { k in firstSpecial(inBlockAt: k, of: bytes) }.at
    }

    /// The one walk over whole blocks of sixteen from `start` in `n` bytes:
    /// `lane(k)` looks at the block at `k`. Found: the lane's offset; not
    /// found: where fewer than 16 bytes are left.
    @inline(__always)
    private static func inBlocks(of n: Int, from start: Int, _ lane: (Int) -> Int?) -> (found: Bool, at: Int) {
        var k = start
        while k &+ 16 <= n {
            if let l = lane(k) { return (true, k &+ l) }
            k &+= 16
        }
        return (false, k)
    }

    /// Whether `test` holds for some word of eight of `u`'s bytes, reading
    /// them all a word at a time: whole words, then the last eight bytes (a
    /// word overlapping the one before); fewer than eight, one word of them
    /// (four to seven: their first four and last four, some read twice) and
    /// `pad` in the lanes left. For a test of each byte on its own (a lane
    /// of `pad` never passes it), that is whether some byte passes.
    @inline(__always)
    static func anyWord(of u: UnsafeRawBufferPointer, paddedWith pad: UInt8, _ test: (UInt64) -> Bool) -> Bool {
        let n = u.count
        @inline(__always) func word(_ k: Int) -> UInt64 { UInt64(littleEndian: u.loadUnaligned(fromByteOffset: k, as: UInt64.self)) }
        if n >= 8 {
            var k = 0
            while k &+ 8 <= n {
                if test(word(k)) { return true }
                k &+= 8
            }
            return k != n && test(word(n &- 8))
        }
        var w = UInt64(pad) &* 0x0101_0101_0101_0101
        if n >= 4 {
            let first = UInt32(littleEndian: u.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
            let last = UInt32(littleEndian: u.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self))
            w = UInt64(first) | UInt64(last) &<< 32
        } else {
            for k in 0..<n { w = w &<< 8 | UInt64(u[k]) }
        }
        return test(w)
    }

    /// ``firstSpecial(inBlockAt:of:)`` among the lanes `skip` (0 to 15) and after.
    @inline(__always)
    static func firstSpecial(inBlockAt k: Int, of bytes: UnsafeRawBufferPointer, fromLane skip: Int) -> Int? {
        #if arch(x86_64)
        let mask = specialMask(inBlockAt: k, of: bytes) & (~0 &<< UInt32(skip))
        return mask != 0 ? mask.trailingZeroBitCount : nil
        #else
        let words = unsafeBitCast(special(bytes.loadUnaligned(fromByteOffset: k, as: Block.self)), to: SIMD2<UInt64>.self)
        var low = UInt64(littleEndian: words[0]), high = UInt64(littleEndian: words[1])
        if skip < 8 {
            low &= ~0 &<< UInt64(8 &* skip)
        } else {
            low = 0
            high &= ~0 &<< UInt64(8 &* (skip &- 8))
        }
        if low != 0 { return low.trailingZeroBitCount &>> 3 }
        if high != 0 { return 8 &+ high.trailingZeroBitCount &>> 3 }
        return nil
        #endif
    }

    /// Where the first quote, backslash, control character or non-ASCII byte
    /// of the sixteen bytes at `k` is (0 to 15), or nil; `k + 16` is at most `bytes.count`.
    @inline(__always)
    static func firstSpecial(inBlockAt k: Int, of bytes: UnsafeRawBufferPointer) -> Int? {
        #if arch(x86_64)
        let mask = specialMask(inBlockAt: k, of: bytes)
        return mask != 0 ? mask.trailingZeroBitCount : nil
        #else
        firstLane(special(bytes.loadUnaligned(fromByteOffset: k, as: Block.self)))
        #endif
    }

    #if arch(x86_64)
    /// Bit j set when byte `k + j` is a quote, a backslash, a control
    /// character or a non-ASCII byte (``special(_:)``'s lanes, by SSE2's
    /// movemask); `k + 16` is at most `bytes.count`.
    @inline(__always)
    static func specialMask(inBlockAt k: Int, of bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress else { return 0 }
        return pl_special_mask16(base + k)
    }
    #endif

    /// The first offset at or after `start` that is not a digit `0-9` (or
    /// `bytes.count`): eight bytes at a time while eight are left (a byte is a
    /// digit when its high nibble is 3 and its low nibble, plus 6, does not
    /// carry into bit 4; no byte carries into the next), then one by one.
    @inline(__always)
    static func digitsEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        let n = bytes.count
        var k = start
        while k &+ 8 <= n {
            let w = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: k, as: UInt64.self))
            let high = (w & 0xF0F0_F0F0_F0F0_F0F0) ^ 0x3030_3030_3030_3030
            let low = ((w & 0x0F0F_0F0F_0F0F_0F0F) &+ 0x0606_0606_0606_0606) & 0x1010_1010_1010_1010
            let other = high | low
            if other != 0 { return k &+ other.trailingZeroBitCount &>> 3 }
            k &+= 8
        }
        while k < n, bytes[k] &- 0x30 < 10 { k &+= 1 }
        return k
    }

    /// The end of a string without escapes whose content starts at `start`
    /// (past its opening quote): the offset of its closing quote when no
    /// backslash, control character or non-ASCII byte comes before it, else
    /// nil (the string is read another way then; so is one not closed).
    /// Whole blocks of sixteen, then the buffer's last sixteen bytes (the
    /// lanes before the block's start left out), so nothing outside it is
    /// read (a buffer of fewer than sixteen bytes answers nil).
    @inline(__always)
    static func plainStringEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        let n = bytes.count
        var k = start
        while k &+ 16 <= n {
            if let lane = firstSpecial(inBlockAt: k, of: bytes) {
                return bytes[k &+ lane] == UInt8(ascii: "\"") ? k &+ lane : nil
            }
            k &+= 16
        }
        let last = n &- 16
        guard k < n, last >= 0, let lane = firstSpecial(inBlockAt: last, of: bytes, fromLane: k &- last),
              bytes[last &+ lane] == UInt8(ascii: "\"") else { return nil }
        return last &+ lane
    }
}
