#include "byte_scan.h"

#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#define LINKCHECK_BLOCKS16 1
#elif defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#define LINKCHECK_BLOCKS16 1
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#if defined(LINKCHECK_BLOCKS16)
/// Blocks of bytes as clang's vector extensions hold them, so that one loop
/// body serves SSE2, AVX2 and NEON (a comparison gives -1 or 0 in each
/// byte, and a movemask its top bits, byte `i`'s in bit `i`).
typedef uint8_t linkcheck_bytes16 __attribute__((vector_size(16)));
#endif
#if defined(__SSE2__)
#define LINKCHECK_MOVEMASK16(mask) ((uint32_t)_mm_movemask_epi8((__m128i)(mask)))
#elif defined(LINKCHECK_BLOCKS16)
/// NEON has no movemask: each byte of a comparison (0xff or 0) keeps the
/// bit of its place in its half (1, 2, 4, … 128), and each half's bits are
/// added across (`vaddv_u8`, AArch64's) into one byte of the mask.
static inline uint32_t linkcheck_movemask16_neon(uint8x16_t mask) {
    const uint8x16_t place_bits = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    uint8x16_t bits = vandq_u8(mask, place_bits);
    return (uint32_t)vaddv_u8(vget_low_u8(bits)) | (uint32_t)vaddv_u8(vget_high_u8(bits)) << 8;
}
#define LINKCHECK_MOVEMASK16(mask) linkcheck_movemask16_neon((uint8x16_t)(mask))
#endif
#if defined(__x86_64__)
typedef uint8_t linkcheck_bytes32 __attribute__((vector_size(32)));
#define LINKCHECK_MOVEMASK32(mask) ((uint32_t)_mm256_movemask_epi8((__m256i)(mask)))
#endif

/// Defines the block scans `NAME_avx2` (x86_64) and `NAME_16` (SSE2 or
/// NEON) that `SCAN(NAME, VECTOR, WIDTH, MOVEMASK)` writes, for the blocks
/// each holds.
#if defined(__x86_64__)
#define LINKCHECK_AVX2_SCAN(SCAN, NAME) __attribute__((target("avx2"))) SCAN(NAME##_avx2, linkcheck_bytes32, 32, LINKCHECK_MOVEMASK32)
#else
#define LINKCHECK_AVX2_SCAN(SCAN, NAME)
#endif
#if defined(LINKCHECK_BLOCKS16)
#define LINKCHECK_16_SCAN(SCAN, NAME) SCAN(NAME##_16, linkcheck_bytes16, 16, LINKCHECK_MOVEMASK16)
#else
#define LINKCHECK_16_SCAN(SCAN, NAME)
#endif
#define LINKCHECK_BLOCK_SCANS(SCAN, NAME) LINKCHECK_AVX2_SCAN(SCAN, NAME) LINKCHECK_16_SCAN(SCAN, NAME)

/// Moves `POSITION` on through the blocks the CPU's widest block scans of
/// `NAME` (`LINKCHECK_BLOCK_SCANS`) take, 32 bytes then 16 at a time,
/// calling each as `NAME_width(bytes, POSITION, ...)`; the caller's byte
/// loop reads what is left.
#if defined(__x86_64__)
#define LINKCHECK_RUN_AVX2_SCAN(POSITION, NAME, BYTES, ...) \
    if (linkcheck_block_width() >= 32) POSITION = NAME##_avx2(BYTES, __VA_ARGS__);
#else
#define LINKCHECK_RUN_AVX2_SCAN(POSITION, NAME, BYTES, ...)
#endif
#if defined(LINKCHECK_BLOCKS16)
#define LINKCHECK_RUN_16_SCAN(POSITION, NAME, BYTES, ...) \
    if (linkcheck_block_width() >= 16) POSITION = NAME##_16(BYTES, __VA_ARGS__);
#else
#define LINKCHECK_RUN_16_SCAN(POSITION, NAME, BYTES, ...)
#endif

/// The cap `linkcheck_limit_block_width` set on this thread, 0 for none.
static _Thread_local int block_width_limit = 0;

void linkcheck_limit_block_width(int bytes) {
    block_width_limit = bytes >= 32 ? 32 : bytes >= 16 ? 16 : bytes > 0 ? 1 : 0;
}

int linkcheck_block_width(void) {
    int limit = block_width_limit;
    int width = 1;
#if defined(LINKCHECK_BLOCKS16)
    width = 16;
#endif
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) width = 32;
#endif
    return limit > 0 && limit < width ? limit : width;
}

uint32_t linkcheck_address_mark(const linkcheck_address_table *table, uint64_t address) {
    uint64_t offset = address - table->low;
    if (offset >= table->span) return 0;
    uint64_t block = offset >> table->block_shift;
    if (!(table->blocks[block >> 6] >> (block & 63) & 1)) return 0;
    uint64_t slot = (address * 0x9e3779b97f4a7c15ULL) >> table->shift;
    for (;;) {
        uint64_t key = table->keys[slot];
        if (key == address) return table->marks[slot];
        if (key == UINT64_MAX) return 0;
        slot = (slot + 1) & table->mask;
    }
}

/// By byte: 1 E8/E9 (call, jmp rel32), 2 a ModRM byte with mod 00 and r/m
/// 101 (RIP+disp32), 3 EB (jmp rel8) and 70-7F (jcc rel8), 4 0F (the first
/// byte of 0F 80-8F, jcc rel32), 0 none of them.
static const uint8_t x86_classes[256] = {
    0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 4, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0,
    0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
};

static inline int32_t load32(const uint8_t *bytes) {
    uint32_t value;
    memcpy(&value, bytes, 4);
    return (int32_t)value;
}

void linkcheck_note_pair(linkcheck_places *places, linkcheck_pairs *pairs, uint32_t function, int32_t number) {
    if (function >= places->function_count || pairs->last_paired[function] == number) return;
    pairs->last_paired[function] = number;
    if (pairs->count == pairs->capacity) {
        size_t capacity = pairs->capacity ? pairs->capacity * 2 : 4096;
        uint64_t *grown = realloc(pairs->pairs, capacity * sizeof *grown);
        // As Swift does when an array cannot grow.
        if (!grown) abort();
        pairs->pairs = grown;
        pairs->capacity = capacity;
    }
    pairs->pairs[pairs->count++] = (uint64_t)function << 32 | (uint32_t)number;
}

/// Legacy prefixes and REX, which may come before an opcode.
static inline int x86_prefix(uint8_t byte) {
    switch (byte) {
    case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64: case 0x65: case 0x66: case 0x67: case 0xf0: case 0xf2: case 0xf3:
        return 1;
    default:
        return byte >= 0x40 && byte <= 0x4f;
    }
}

int linkcheck_x86_may_start_before(const uint8_t *bytes, size_t region_start, size_t offset, int branch) {
    if (region_start == 0 || offset < region_start) return 0;
    if (!branch) return offset - region_start < 10;
    if (offset - region_start >= 14 || !x86_prefix(bytes[region_start - 1])) return 0;
    for (size_t at = region_start; at < offset; at++) {
        if (!x86_prefix(bytes[at])) return 0;
    }
    return 1;
}

/// A place at `offset` in a section whose byte 0 is at `address`: moves
/// the region on to the one holding it, then calls back for a seed or
/// pairs the function its mark names with the region: an aarch64 direct
/// branch in `branching`, other places in `reaching` (and the region before,
/// on x86_64, when the instruction may start there).
__attribute__((always_inline)) static inline void place(
    linkcheck_places *places, const uint8_t *bytes, uint64_t address, size_t offset, linkcheck_place_kind kind,
    uint32_t mark, int x86) {
    uint64_t at = address + offset;
    while (places->region + 1 < places->region_count && at >= places->region_starts[places->region + 1]) places->region++;
    if (mark & LINKCHECK_MARK_SEED) {
        places->found(places->context, offset, kind, mark, 0, 0);
        return;
    }
    uint32_t function = mark - 1;
    int32_t number = places->first_number + (int32_t)places->region;
    if (!x86 && kind == linkcheck_place_direct) {
        linkcheck_note_pair(places, &places->branching, function, number);
        return;
    }
    linkcheck_note_pair(places, &places->reaching, function, number);
    if (x86 && places->region > 0
        && linkcheck_x86_may_start_before(bytes, (size_t)(places->region_starts[places->region] - address), offset,
                                          kind == linkcheck_place_direct)) {
        linkcheck_note_pair(places, &places->reaching, function, number - 1);
    }
}

/// The place at `offset`, whose byte is of class `kind` (`x86_classes`).
__attribute__((always_inline)) static inline void x86_place(
    const uint8_t *bytes, size_t count, size_t offset, uint8_t kind, uint64_t address,
    const linkcheck_address_table *direct, const linkcheck_address_table *slots, int has_slots, int wrapping,
    linkcheck_places *places) {
    uint32_t mark = 0;
    if (kind == 1 || kind == 4) {
        // The displacement follows the opcode: E8/E9, or 0F 8x.
        size_t opcode = kind == 1 ? 1 : 2;
        if (kind == 4 && (offset + 1 >= count || (bytes[offset + 1] & 0xf0) != 0x80)) return;
        if (offset + opcode + 4 <= count)
            mark = linkcheck_address_mark(direct, address + offset + opcode + 4 + (int64_t)load32(bytes + offset + opcode));
        if (mark) place(places, bytes, address, offset, linkcheck_place_direct, mark, 1);
        // Only an operand-size prefix (0x66) makes the displacement rel16,
        // and prefixes come right before the opcode.
        if (wrapping && offset > 0 && x86_prefix(bytes[offset - 1]) && offset + opcode + 2 <= count) {
            int16_t rel16 = (int16_t)(bytes[offset + opcode] | bytes[offset + opcode + 1] << 8);
            uint32_t wrapped = linkcheck_address_mark(direct, (address + offset + opcode + 2 + rel16) & 0xffff);
            if (wrapped) place(places, bytes, address, offset, linkcheck_place_direct, wrapped, 1);
        }
    } else if (kind == 3) {
        if (offset + 2 <= count) mark = linkcheck_address_mark(direct, address + offset + 2 + (int8_t)bytes[offset + 1]);
        if (mark) place(places, bytes, address, offset, linkcheck_place_direct, mark, 1);
    } else if (kind == 2 && has_slots && offset + 5 <= count) {
        mark = linkcheck_address_mark(slots, address + offset + 5 + (int64_t)load32(bytes + offset + 1));
        if (mark) place(places, bytes, address, offset, linkcheck_place_slot, mark, 1);
    }
}

/// `NAME`: the `WIDTH`-byte blocks of `linkcheck_scan_x86` from `offset`
/// (`VECTOR` holds one, `MOVEMASK` takes a comparison's top bits); only the
/// bytes that can be a place go on to the class test, E8/E9, EB, 70-7F, 0F
/// followed by 80-8F, and (with slots) a ModRM byte with mod 00 and r/m
/// 101. Returns where the blocks end.
#define X86_BLOCK_SCAN(NAME, VECTOR, WIDTH, MOVEMASK)                                                                \
    static size_t NAME(const uint8_t *bytes, size_t count, size_t offset, size_t to, uint64_t address,               \
                       const linkcheck_address_table *direct, const linkcheck_address_table *slots, int has_slots,   \
                       int wrapping, linkcheck_places *places) {                                                     \
        for (; offset + WIDTH <= to && offset + WIDTH + 1 <= count; offset += WIDTH) {                               \
            VECTOR block, next;                                                                                      \
            memcpy(&block, bytes + offset, WIDTH);                                                                   \
            memcpy(&next, bytes + offset + 1, WIDTH);                                                                \
            uint32_t calls = MOVEMASK((block & 0xfe) == 0xe8);                                                       \
            uint32_t short_jumps = MOVEMASK((block == 0xeb) | ((block & 0xf0) == 0x70));                             \
            uint32_t long_jumps = MOVEMASK((block == 0x0f) & ((next & 0xf0) == 0x80));                               \
            uint32_t operands = has_slots ? MOVEMASK((block & 0xc7) == 0x05) : 0;                                    \
            uint32_t candidates = calls | short_jumps | long_jumps | operands;                                       \
            while (candidates) {                                                                                     \
                uint32_t bit = candidates & -candidates;                                                             \
                uint8_t kind = bit & calls ? 1 : bit & short_jumps ? 3 : bit & long_jumps ? 4 : 2;                   \
                x86_place(bytes, count, offset + (size_t)__builtin_ctz(candidates), kind, address, direct, slots,    \
                          has_slots, wrapping, places);                                                              \
                candidates &= candidates - 1;                                                                        \
            }                                                                                                        \
        }                                                                                                            \
        return offset;                                                                                               \
    }

LINKCHECK_BLOCK_SCANS(X86_BLOCK_SCAN, scan_x86)

void linkcheck_scan_x86(
    const uint8_t *bytes, size_t count, size_t from, size_t to, uint64_t address,
    const linkcheck_address_table *direct, const linkcheck_address_table *slots, int wrapping, linkcheck_places *places) {
    int has_slots = slots->span != 0;
    if (to > count) to = count;
    size_t offset = from;
    LINKCHECK_RUN_AVX2_SCAN(offset, scan_x86, bytes, count, offset, to, address, direct, slots, has_slots, wrapping, places)
    LINKCHECK_RUN_16_SCAN(offset, scan_x86, bytes, count, offset, to, address, direct, slots, has_slots, wrapping, places)
    for (; offset < to; offset++) {
        uint8_t kind = x86_classes[bytes[offset]];
        if (kind) x86_place(bytes, count, offset, kind, address, direct, slots, has_slots, wrapping, places);
    }
}

/// Whether an address of `sorted` lies in `low`..<`high`.
static int any_in(const uint64_t *sorted, size_t count, uint64_t low, uint64_t high) {
    size_t lower = 0, upper = count;
    while (lower < upper) {
        size_t middle = lower + (upper - lower) / 2;
        if (sorted[middle] < low) lower = middle + 1; else upper = middle;
    }
    return lower < count && sorted[lower] < high;
}

static inline int64_t sign_extend(uint64_t value, int bits) {
    return (int64_t)(value << (64 - bits)) >> (64 - bits);
}

/// The aarch64 word at `offset`: a place when it is one of the
/// instructions `linkcheck_scan_arm64` looks for and reaches an address of
/// interest.
__attribute__((always_inline)) static inline void arm64_word(
    const uint8_t *bytes, size_t offset, uint64_t address, const linkcheck_address_table *direct,
    const linkcheck_address_table *slots, const uint64_t *sorted_slots, size_t slot_count, uint64_t reach,
    linkcheck_places *places) {
    uint32_t word = (uint32_t)load32(bytes + offset);
    uint64_t pc = address + offset;
    if ((word & 0x7c000000) == 0x14000000) {
        // b, bl: imm26 words.
        uint32_t mark = linkcheck_address_mark(direct, pc + (sign_extend(word & 0x03ffffff, 26) << 2));
        if (mark) place(places, bytes, address, offset, linkcheck_place_direct, mark, 0);
    } else if ((word & 0xff000010) == 0x54000000 || (word & 0x7e000000) == 0x34000000) {
        // b.cond, cbz, cbnz: imm19 words.
        uint32_t mark = linkcheck_address_mark(direct, pc + (sign_extend(word >> 5 & 0x7ffff, 19) << 2));
        if (mark) place(places, bytes, address, offset, linkcheck_place_direct, mark, 0);
    } else if ((word & 0x7e000000) == 0x36000000) {
        // tbz, tbnz: imm14 words.
        uint32_t mark = linkcheck_address_mark(direct, pc + (sign_extend(word >> 5 & 0x3fff, 14) << 2));
        if (mark) place(places, bytes, address, offset, linkcheck_place_direct, mark, 0);
    } else if ((word & 0xff000000) == 0x58000000) {
        // ldr Xt, literal: imm19 words.
        uint32_t mark = linkcheck_address_mark(slots, pc + (sign_extend(word >> 5 & 0x7ffff, 19) << 2));
        if (mark) place(places, bytes, address, offset, linkcheck_place_slot, mark, 0);
    } else if ((word & 0x1f000000) == 0x10000000 && slot_count > 0) {
        // adr, adrp: immhi:immlo.
        int64_t immediate = sign_extend((uint64_t)(word >> 5 & 0x7ffff) << 2 | (word >> 29 & 3), 21);
        uint64_t low, high;
        if (word & 0x80000000) {
            low = (pc & ~(uint64_t)0xfff) + (uint64_t)(immediate * 4096);
            high = low + reach;
        } else {
            uint64_t target = pc + immediate;
            low = target - 256;
            high = target + reach;
        }
        if (low < high && any_in(sorted_slots, slot_count, low, high)) {
            places->found(places->context, offset, linkcheck_place_window, 0, low, high);
        }
    }
}

/// `NAME`: the `WIDTH`-byte blocks of `linkcheck_scan_arm64` from `offset`
/// (`VECTOR` holds one, read as words; `MOVEMASK` takes a comparison's top
/// bits, four for each word): only the words `arm64_word` may take, a
/// branch, an `ldr` literal, and (with slots) an `adr`/`adrp`, go on to it.
/// Returns where the blocks end.
#define ARM64_BLOCK_SCAN(NAME, VECTOR, WIDTH, MOVEMASK)                                                              \
    static size_t NAME(const uint8_t *bytes, size_t count, size_t offset, size_t to, uint64_t address,               \
                       const linkcheck_address_table *direct, const linkcheck_address_table *slots,                  \
                       const uint64_t *sorted_slots, size_t slot_count, uint64_t reach, linkcheck_places *places) {  \
        typedef uint32_t words __attribute__((vector_size(WIDTH)));                                                  \
        int32_t addresses = slot_count > 0 ? -1 : 0;                                                                 \
        for (; offset + WIDTH <= to && offset + WIDTH <= count; offset += WIDTH) {                                   \
            words block;                                                                                             \
            memcpy(&block, bytes + offset, WIDTH);                                                                   \
            uint32_t candidates = MOVEMASK((VECTOR)(((block & 0x7c000000) == 0x14000000)                             \
                                                    | ((block & 0xff000010) == 0x54000000)                           \
                                                    | ((block & 0x7c000000) == 0x34000000)                           \
                                                    | ((block & 0xff000000) == 0x58000000)                           \
                                                    | (((block & 0x1f000000) == 0x10000000) & addresses)));          \
            while (candidates) {                                                                                     \
                unsigned lane = (unsigned)__builtin_ctz(candidates) / 4;                                             \
                arm64_word(bytes, offset + lane * 4, address, direct, slots, sorted_slots, slot_count, reach,        \
                           places);                                                                                  \
                candidates &= ~(0xfu << (lane * 4));                                                                 \
            }                                                                                                        \
        }                                                                                                            \
        return offset;                                                                                               \
    }

LINKCHECK_BLOCK_SCANS(ARM64_BLOCK_SCAN, scan_arm64)

void linkcheck_scan_arm64(
    const uint8_t *bytes, size_t count, size_t from, size_t to, uint64_t address,
    const linkcheck_address_table *direct, const linkcheck_address_table *slots,
    const uint64_t *sorted_slots, size_t slot_count, uint64_t reach, linkcheck_places *places) {
    size_t offset = from;
    LINKCHECK_RUN_AVX2_SCAN(offset, scan_arm64, bytes, count, offset, to, address, direct, slots, sorted_slots, slot_count,
                            reach, places)
    LINKCHECK_RUN_16_SCAN(offset, scan_arm64, bytes, count, offset, to, address, direct, slots, sorted_slots, slot_count,
                          reach, places)
    for (; offset < to && offset + 4 <= count; offset += 4) {
        arm64_word(bytes, offset, address, direct, slots, sorted_slots, slot_count, reach, places);
    }
}

static inline void literal_end(
    const uint8_t *bytes, size_t end, const uint8_t *filter, void *context, void (*found)(void *, size_t)) {
    unsigned key = (end >= 2 ? (unsigned)bytes[end - 2] << 8 : 0) | bytes[end - 1];
    if (filter[key >> 3] & (1u << (key & 7))) found(context, end);
}

/// `NAME`: the `WIDTH`-byte blocks of `linkcheck_literal_ends` from `end`
/// (as `X86_BLOCK_SCAN`). A NUL at `end` whose byte before is one of the
/// last bytes (which are not NUL), or with more last bytes than that, is not
/// NUL: the block is compared with zero, and the block one byte earlier with
/// each last byte (or with zero). Returns where the blocks end.
#define LITERAL_BLOCK_SCAN(NAME, VECTOR, WIDTH, MOVEMASK)                                                            \
    static size_t NAME(const uint8_t *bytes, size_t end, size_t to, const uint8_t *filter,                         \
                       const uint8_t *last_bytes, size_t lasts, void *context, void (*found)(void *, size_t)) {      \
        for (; end + WIDTH <= to; end += WIDTH) {                                                                    \
            VECTOR block, before;                                                                                    \
            memcpy(&block, bytes + end, WIDTH);                                                                      \
            memcpy(&before, bytes + end - 1, WIDTH);                                                                 \
            uint32_t ends;                                                                                           \
            if (lasts) {                                                                                             \
                VECTOR wanted = (VECTOR)(before == last_bytes[0]);                                                   \
                for (size_t index = 1; index < lasts; index++) wanted |= (VECTOR)(before == last_bytes[index]);      \
                ends = MOVEMASK((VECTOR)(block == 0) & wanted);                                                      \
            } else {                                                                                                 \
                ends = MOVEMASK((block == 0) & (before != 0));                                                       \
            }                                                                                                        \
            while (ends) {                                                                                           \
                literal_end(bytes, end + (size_t)__builtin_ctz(ends), filter, context, found);                       \
                ends &= ends - 1;                                                                                    \
            }                                                                                                        \
        }                                                                                                            \
        return end;                                                                                                  \
    }

LINKCHECK_BLOCK_SCANS(LITERAL_BLOCK_SCAN, literal_ends)

void linkcheck_literal_ends(
    const uint8_t *bytes, size_t from, size_t to, const uint8_t *filter, const uint8_t *last_bytes, size_t last_count,
    void *context, void (*found)(void *context, size_t end)) {
    size_t end = from < 1 ? 1 : from;
    size_t lasts = last_count <= LINKCHECK_LAST_BYTES ? last_count : 0;
    LINKCHECK_RUN_AVX2_SCAN(end, literal_ends, bytes, end, to, filter, last_bytes, lasts, context, found)
    LINKCHECK_RUN_16_SCAN(end, literal_ends, bytes, end, to, filter, last_bytes, lasts, context, found)
    for (; end < to; end++) {
        if (bytes[end] == 0 && bytes[end - 1] != 0) literal_end(bytes, end, filter, context, found);
    }
}
