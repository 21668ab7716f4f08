// Memory for a large hash table that is probed at random (the readers' id
// table): on Linux, mapped for it and marked `MADV_HUGEPAGE`, so that its
// probes walk few pages (the table is several MiB; with 4 KiB pages nearly
// every probe missed the TLB and the prefetch of a slot waited for its page
// walk: docs/performance.md, "the reading thread, seventh pass").

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `byteCount` bytes of zeroed memory, 2 MiB-aligned and advised onto huge
/// pages where the system has them (Linux, `madvise(MADV_HUGEPAGE)`; the
/// kernel may still give 4 KiB pages: the advice is only advice), or an
/// ordinary zeroed allocation (other systems, small sizes, or when mapping
/// fails). Freed when the last reference goes.
///
/// Used by one thread at a time (the owner's).
final class TableMemory {
    /// The zeroed bytes (`byteCount` of them, 64-byte aligned at least).
    let bytes: UnsafeMutableRawPointer
    /// How many bytes were asked for.
    let byteCount: Int
    /// Where the mapping is and how long, when the bytes were mapped (nil: allocated).
    private let mapping: (start: UnsafeMutableRawPointer, length: Int)?

    /// Below this size a table is allocated as usual: it fits in few pages anyway.
    static let hugePageSize = 2 << 20

    /// Whether this memory was mapped and advised onto huge pages (false: an ordinary allocation).
    var isAdvisedHuge: Bool { mapping != nil }

    /// `byteCount` zeroed bytes (at least 1).
    init(zeroed byteCount: Int) {
        self.byteCount = max(byteCount, 1)
        if let mapped = TableMemory.mapHuge(self.byteCount) {
            bytes = mapped.aligned
            mapping = (mapped.start, mapped.length)
        } else {
            bytes = .allocate(byteCount: self.byteCount, alignment: 64)
            bytes.initializeMemory(as: UInt8.self, repeating: 0, count: self.byteCount)
            mapping = nil
        }
    }

    deinit {
        if let mapping {
            TableMemory.unmap(mapping.start, mapping.length)
        } else {
            bytes.deallocate()
        }
    }

    /// Maps `byteCount` bytes (rounded up to whole huge pages) at a huge-page
    /// boundary and advises them onto huge pages; nil where that is not done.
    private static func mapHuge(_ byteCount: Int) -> (start: UnsafeMutableRawPointer, length: Int, aligned: UnsafeMutableRawPointer)? {
        #if os(Linux)
        guard byteCount >= hugePageSize else { return nil }
        let length = (byteCount + hugePageSize - 1) / hugePageSize * hugePageSize
        // One huge page more than needed, so that a boundary falls inside; the ends are given back.
        let padded = length + hugePageSize
        guard let raw = mmap(nil, padded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              raw != MAP_FAILED else { return nil }
        let address = UInt(bitPattern: raw)
        let alignedAddress = (address + UInt(hugePageSize) - 1) & ~UInt(hugePageSize - 1)
        let head = Int(alignedAddress - address)
        let tail = padded - head - length
        if head > 0 { _ = munmap(raw, head) }
        guard let aligned = UnsafeMutableRawPointer(bitPattern: alignedAddress) else { return nil }
        if tail > 0 { _ = munmap(aligned + length, tail) }
        // Advice only: where it is refused (a kernel without transparent huge pages) the memory is the same, on small pages.
        _ = madvise(aligned, length, MADV_HUGEPAGE)
        return (aligned, length, aligned)
        #else
        return nil
        #endif
    }

    private static func unmap(_ start: UnsafeMutableRawPointer, _ length: Int) {
        #if os(Linux)
        _ = munmap(start, length)
        #endif
    }
}
