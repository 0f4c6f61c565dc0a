// Byte scans over whole sections, too hot for anything but a tight C loop:
// the places in x86_64 and aarch64 code that may transfer control to an
// address of interest (linkcheck's targeted call-site search), without
// decoding instructions; and the ends of the NUL-terminated runs of
// read-only data that may end with a string literal of interest.
#ifndef LINKCHECK_BYTE_SCAN_H
#define LINKCHECK_BYTE_SCAN_H

#include <stddef.h>
#include <stdint.h>

/// An open-addressing hash table of addresses (linear probing, key times
/// 0x9e3779b97f4a7c15 shifted right by `shift`), each with a nonzero mark.
/// An empty slot holds UINT64_MAX. `low` and `span` bound the keys:
/// an address `a` can only be a key when `a - low < span`, and only when
/// `blocks` has the bit of its block set (one bit per `1 << block_shift`
/// bytes from `low`: bit `i % 64` of word `i / 64` for the block
/// `(a - low) >> block_shift`), so that most addresses are ruled out
/// without touching the table.
typedef struct {
    const uint64_t *keys;
    const uint32_t *marks;
    uint64_t mask;
    unsigned shift;
    uint64_t low;
    uint64_t span;
    const uint64_t *blocks;
    unsigned block_shift;
} linkcheck_address_table;

/// The mark of `address` in `table`, 0 when it has none.
uint32_t linkcheck_address_mark(const linkcheck_address_table *table, uint64_t address);

/// What a place found in code reaches.
typedef enum {
    /// A direct transfer (x86_64 `E8`/`E9` and `0F 80`-`8F` (jcc) rel32,
    /// their operand-size rel16, `EB` and `70`-`7F` (jcc) rel8; aarch64 `b`,
    /// `bl`, `b.cond`, `cbz`/`cbnz`, `tbz`/`tbnz`) to an address of the
    /// direct table.
    linkcheck_place_direct = 1,
    /// An operand that addresses a slot of the slot table (x86_64
    /// RIP-relative ModRM; aarch64 `ldr` literal).
    linkcheck_place_slot = 2,
    /// aarch64 `adrp` (a page) or `adr` (an address) from which a slot of
    /// `sorted_slots` lies within reach: `low`..<`high`.
    linkcheck_place_window = 3,
} linkcheck_place_kind;

/// Called for each place found: its offset in the buffer (the opcode, the
/// ModRM byte, or the aarch64 word), its kind, the mark (direct and slot
/// places) or the window (`low`..<`high`).
typedef void (*linkcheck_place_found)(
    void *context, size_t offset, linkcheck_place_kind kind, uint32_t mark, uint64_t low, uint64_t high);

/// The bit of a mark that makes its place a seed of the search; the other
/// bits are a function's index + 1 (0: none).
#define LINKCHECK_MARK_SEED 0x80000000u

/// Functions paired with regions of code: `function << 32 | region number`,
/// each pair once after another of the same function.
typedef struct {
    /// By function (`linkcheck_places.function_count` of them): the number
    /// of the last region paired with it (-1: none).
    int32_t *last_paired;
    /// The pairs (`malloc`ed and grown by the scans; the caller frees them).
    uint64_t *pairs;
    size_t count;
    size_t capacity;
} linkcheck_pairs;

/// Where a scan puts what it finds in one section: a place whose mark is a
/// seed, and every window, goes to `found(context, …)`; a place that only
/// reaches a function is paired with the region it is in (and, on x86_64,
/// the region before when the instruction may start there:
/// `linkcheck_x86_may_start_before`) without a call.
typedef struct {
    void *context;
    linkcheck_place_found found;
    /// The section's regions: their starts (ascending virtual addresses,
    /// each region ending where the next starts), and how many.
    const uint64_t *region_starts;
    size_t region_count;
    /// The index in `region_starts` of the region of the last place; the
    /// scans move it forward as places come.
    size_t region;
    /// The number of the section's first region among all regions scanned.
    int32_t first_number;
    /// How many functions there are. A mark naming a function past them
    /// is not paired.
    size_t function_count;
    /// The regions with a place that may reach a function: decoding the
    /// region tells whether it is a call.
    linkcheck_pairs reaching;
    /// aarch64: the regions with a direct branch (`b`, `bl`, `b.cond`,
    /// `cbz`/`cbnz`, `tbz`/`tbnz`) to a function's start or to a stub that
    /// reaches it. An instruction is one aligned word, so decoding the region
    /// finds that very branch: it is a call or a tail call by what the
    /// target is, with no decoding.
    linkcheck_pairs branching;
} linkcheck_places;

/// Pairs `function` with region `number` in `pairs` unless its last pair
/// there is with it.
void linkcheck_note_pair(linkcheck_places *places, linkcheck_pairs *pairs, uint32_t function, int32_t number);

/// Whether the x86_64 instruction whose opcode (`branch`) or ModRM byte is
/// at `offset` in `bytes` may start before `region_start` (an offset in
/// `bytes`): a branch's bytes before its opcode can only be prefixes
/// (legacy and REX), and a RIP-relative instruction ends 4 bytes after its
/// ModRM and is at most 15 bytes long.
int linkcheck_x86_may_start_before(const uint8_t *bytes, size_t region_start, size_t offset, int branch);

/// Scans `bytes[from..<to]` (x86_64 code whose byte 0 is at virtual address
/// `address`; `count` bytes are readable, so a place near `to` is read
/// whole) for direct transfers to `direct` and RIP-relative operands
/// addressing `slots`, in address order, into `places`, whose `region` is
/// one at or before the region holding `address + from` (the scan moves it
/// on). `wrapping`: also try the rel16 targets an operand-size prefix makes
/// (wrapped at 64 KiB). Tests the bytes in blocks of
/// `linkcheck_block_width()`, then one at a time.
void linkcheck_scan_x86(
    const uint8_t *bytes, size_t count, size_t from, size_t to, uint64_t address,
    const linkcheck_address_table *direct, const linkcheck_address_table *slots, int wrapping, linkcheck_places *places);

/// Scans the 4-byte words at `from`, `from + 4`, … before `to` (aarch64
/// code whose byte 0 is at virtual address `address`, `count` bytes
/// readable) for `b`/`bl` and the conditional branches (`b.cond`,
/// `cbz`/`cbnz`, `tbz`/`tbnz`) to `direct`, `ldr` literal from `slots`, and
/// `adrp`/`adr` within `reach` (an `adr` also 256 bytes below) of an
/// address of `sorted_slots` (ascending, `slot_count` of them), into
/// `places`, whose `region` the caller sets to the region `from..<to` is.
/// Tests the words in blocks of `linkcheck_block_width()` bytes, then one
/// at a time.
void linkcheck_scan_arm64(
    const uint8_t *bytes, size_t count, size_t from, size_t to, uint64_t address,
    const linkcheck_address_table *direct, const linkcheck_address_table *slots,
    const uint64_t *sorted_slots, size_t slot_count, uint64_t reach, linkcheck_places *places);

/// How many distinct last bytes `linkcheck_literal_ends` tests a block at
/// a time; with more, only the filter tests them.
#define LINKCHECK_LAST_BYTES 8

/// Calls `found(context, end)` for each `end` in `max(from, 1)..<to` where
/// `bytes[end]` is NUL, `bytes[end - 1]` is not, and `filter` (65,536 bits,
/// bit `i % 8` of byte `i / 8`) has the bit for the two bytes before `end`
/// (`bytes[end - 2] << 8 | bytes[end - 1]`, with 0 for the byte before
/// the buffer). `bytes[0..<to]` are readable. `last_bytes` (`last_count`
/// of them) are the bytes the filter lets end a run: with at most
/// `LINKCHECK_LAST_BYTES` of them, runs ending otherwise are ruled out a
/// block (`linkcheck_block_width()` bytes) at a time before the filter is
/// read.
void linkcheck_literal_ends(
    const uint8_t *bytes, size_t from, size_t to, const uint8_t *filter, const uint8_t *last_bytes, size_t last_count,
    void *context, void (*found)(void *context, size_t end));

/// The widest block of bytes the x86_64, aarch64 and literal scans test at once on
/// this thread: 32 where the processor has AVX2 (`__builtin_cpu_supports`),
/// else 16 with SSE2 or (AArch64) NEON, else 1; never more than `linkcheck_limit_block_width`
/// allows.
int linkcheck_block_width(void);

/// Caps the block width of the scans the calling thread runs at `bytes`
/// (rounded down to 32, 16 or 1; 0 lifts the cap). Every width gives the same answers; the
/// tests run each to show it.
void linkcheck_limit_block_width(int bytes);

#endif
