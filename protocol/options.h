/* The engine options GUIs see: their names in UCI and UCCI form, types, defaults and ranges, the
 * handshake's option block, and reading a `setoption` value. Holds the current values; acting on a
 * change (resizing the table, switching rules) is the caller's job. */
#ifndef JANGGUN_OPTIONS_H
#define JANGGUN_OPTIONS_H

#include <stdint.h>
#include <stdio.h>

#include "../search/search.h"
#include "command.h"

typedef enum {
    OPTION_THREADS,
    OPTION_HASH,
    OPTION_CLEAR_HASH,
    OPTION_PONDER,
    OPTION_MULTIPV,
    OPTION_SKILL_LEVEL,
    OPTION_MOVE_OVERHEAD,
    OPTION_VARIANT,
    OPTION_ANALYSE_MODE,
    OPTION_LIMIT_STRENGTH,
    OPTION_ELO,
    OPTION_SHOW_WDL,
    OPTION_USEMILLISEC,
    OPTION_USE_NNUE,
    OPTION_EVAL_FILE,
    OPTION_SKILL_SEED,
    OPTION_COUNT
} OptionId;

typedef enum { OPTION_SPIN, OPTION_CHECK, OPTION_BUTTON, OPTION_COMBO, OPTION_STRING } OptionType;

typedef struct {
    const char *name;      /* UCI name */
    const char *ucci_name; /* UCCI name: blanks as underscores, Hash as hashsize */
    OptionType type;
    long long def, min, max;
    bool needs_idle; /* cannot change while a search runs */
} OptionDef;

extern const OptionDef option_defs[OPTION_COUNT];

enum { OPTION_TEXT_SIZE = 1024 };

/* Current values: spins and checks as numbers; the variant as an index into rules_all; EvalFile as
 * text (empty: the embedded net). */
typedef struct {
    long long value[OPTION_COUNT];
    char eval_file[OPTION_TEXT_SIZE];
} EngineOptions;

void options_reset(EngineOptions *opts);

/* The option lines of the handshake (between `id author` and `uciok`/`ucciok`), each ending in '\n'. */
void options_print(Protocol proto, FILE *out);

/* XBoard's `feature option="..."` lines (CECP's -spin, -check, -button, -combo forms), each ending in
 * '\n': every option but Threads, Hash and UCI_Variant, which CECP sets with `cores`, `memory` and
 * `variant` (as FSF does). */
void options_print_xboard(FILE *out);

/* The option called `name` (any case; UCI or UCCI name; blanks between words may differ), or -1. */
int options_find(Span name);

/* Reads a value for option `id`; false with a message when it is missing, malformed or out of range.
 * A string option's value is its text (`out` untouched): use options_parse_text. */
bool options_parse_value(OptionId id, Span value, bool has_value, long long *out, char *err, size_t err_size);

/* Reads a string option's value into text (OPTION_TEXT_SIZE bytes); false with a message when it is
 * missing or too long. */
bool options_parse_text(OptionId id, Span value, bool has_value, char *text, char *err, size_t err_size);

/* Sets the strength level of `limits` from Skill Level, UCI_LimitStrength, UCI_Elo and Skill Seed
 * (search/skill.h): off at full strength. */
void options_strength_limits(const EngineOptions *opts, SearchLimits *limits);

/* Caps for the fuzz targets (tests/fuzz/), which feed the protocol loop arbitrary commands and must not
 * wait on a deep search or allocate gigabytes: every search at most `nodes` nodes, perft and bench at most
 * `depth` plies, Hash at most `hash_mb` MB, Threads at most `threads`. 0 leaves a cap off; the engine sets
 * none. */
typedef struct {
    uint64_t nodes;
    long long depth, hash_mb, threads;
} ProtocolCaps;

extern ProtocolCaps protocol_caps;

/* `value` within `cap` (0: no cap). */
static inline long long protocol_cap(long long value, long long cap) { return cap > 0 && value > cap ? cap : value; }

/* Applies protocol_caps.nodes to a search about to start. */
void options_apply_caps(SearchLimits *limits);

#endif
