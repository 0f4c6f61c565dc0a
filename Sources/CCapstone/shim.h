// The Capstone disassembler (Debian: libcapstone-dev), and operand views so
// that Swift need not index C arrays inside unions.
#include <capstone/capstone.h>

static inline uint8_t linkcheck_x86_operand_count(const cs_insn *insn) { return insn->detail->x86.op_count; }
static inline const cs_x86_op *linkcheck_x86_operand(const cs_insn *insn, unsigned index) { return &insn->detail->x86.operands[index]; }
static inline uint8_t linkcheck_arm64_operand_count(const cs_insn *insn) { return insn->detail->arm64.op_count; }
static inline const cs_arm64_op *linkcheck_arm64_operand(const cs_insn *insn, unsigned index) { return &insn->detail->arm64.operands[index]; }
static inline bool linkcheck_arm64_writeback(const cs_insn *insn) { return insn->detail->arm64.writeback; }
static inline uint8_t linkcheck_registers_written_count(const cs_insn *insn) { return insn->detail->regs_write_count; }
static inline uint16_t linkcheck_register_written(const cs_insn *insn, unsigned index) { return insn->detail->regs_write[index]; }
