#include "options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/rules.h"
#include "../eval/eval.h"
#include "../search/search.h"

/* Move Overhead defaults to 30 ms, as in FSF 11.1; the rest as FSF, with Janggun's own limits. The
 * strength options have FSF's names, defaults and ranges (its latest UCI_Elo range); Skill Seed is
 * Janggun's own, last, and changes nothing for a GUI that leaves it alone. */
const OptionDef option_defs[OPTION_COUNT] = {
    [OPTION_THREADS] = {"Threads", "Threads", OPTION_SPIN, 1, 1, MAX_THREADS, true},
    [OPTION_HASH] = {"Hash", "hashsize", OPTION_SPIN, 16, 1, 65536, true},
    [OPTION_CLEAR_HASH] = {"Clear Hash", "Clear_Hash", OPTION_BUTTON, 0, 0, 0, true},
    [OPTION_PONDER] = {"Ponder", "Ponder", OPTION_CHECK, 0, 0, 1, false},
    [OPTION_MULTIPV] = {"MultiPV", "MultiPV", OPTION_SPIN, 1, 1, MAX_MULTIPV, false},
    [OPTION_SKILL_LEVEL] = {"Skill Level", "Skill_Level", OPTION_SPIN, SKILL_LEVEL_MAX, SKILL_LEVEL_MIN,
                            SKILL_LEVEL_MAX, false},
    [OPTION_MOVE_OVERHEAD] = {"Move Overhead", "Move_Overhead", OPTION_SPIN, 30, 0, 5000, false},
    [OPTION_VARIANT] = {"UCI_Variant", "UCI_Variant", OPTION_COMBO, 0, 0, 3, false},
    [OPTION_ANALYSE_MODE] = {"UCI_AnalyseMode", "UCI_AnalyseMode", OPTION_CHECK, 0, 0, 1, false},
    [OPTION_LIMIT_STRENGTH] = {"UCI_LimitStrength", "UCI_LimitStrength", OPTION_CHECK, 0, 0, 1, false},
    [OPTION_ELO] = {"UCI_Elo", "UCI_Elo", OPTION_SPIN, SKILL_ELO_DEFAULT, SKILL_ELO_MIN, SKILL_ELO_MAX, false},
    [OPTION_SHOW_WDL] = {"UCI_ShowWDL", "UCI_ShowWDL", OPTION_CHECK, 0, 0, 1, false},
    [OPTION_USEMILLISEC] = {"usemillisec", "usemillisec", OPTION_CHECK, 1, 0, 1, false},
    /* On: the shipped net beats the classical evaluation (README, The network); false = classical. */
    [OPTION_USE_NNUE] = {"Use NNUE", "Use_NNUE", OPTION_CHECK, 1, 0, 1, false},
    /* The default is the embedded net's name; loading replaces the net searches share. */
    [OPTION_EVAL_FILE] = {"EvalFile", "EvalFile", OPTION_STRING, 0, 0, 0, true},
    [OPTION_SKILL_SEED] = {"Skill Seed", "Skill_Seed", OPTION_SPIN, 0, 0, SKILL_SEED_MAX, false},
};

void options_reset(EngineOptions *opts)
{
    for (int i = 0; i < OPTION_COUNT; i++)
        opts->value[i] = option_defs[i].def;
    opts->eval_file[0] = '\0';
}

void options_print(Protocol proto, FILE *out)
{
    for (int i = 0; i < OPTION_COUNT; i++) {
        const OptionDef *o = &option_defs[i];
        if (proto == PROTO_UCI)
            fprintf(out, "option name %s type ", o->name);
        else
            fprintf(out, "option %s type ", o->ucci_name);
        switch (o->type) {
        case OPTION_SPIN: fprintf(out, "spin default %lld min %lld max %lld\n", o->def, o->min, o->max); break;
        case OPTION_CHECK: fprintf(out, "check default %s\n", o->def ? "true" : "false"); break;
        case OPTION_BUTTON: fputs("button\n", out); break;
        case OPTION_STRING: fprintf(out, "string default %s\n", eval_embedded_net_name()); break;
        case OPTION_COMBO:
            fprintf(out, "combo default %s", rules_all[o->def]->name);
            for (int k = 0; k < 4; k++)
                fprintf(out, " var %s", rules_all[k]->name);
            fputc('\n', out);
            break;
        }
    }
}

void options_print_xboard(FILE *out)
{
    for (int i = 0; i < OPTION_COUNT; i++) {
        const OptionDef *o = &option_defs[i];
        if (i == OPTION_THREADS || i == OPTION_HASH || i == OPTION_VARIANT)
            continue;
        switch (o->type) {
        case OPTION_SPIN:
            fprintf(out, "feature option=\"%s -spin %lld %lld %lld\"\n", o->name, o->def, o->min, o->max);
            break;
        case OPTION_CHECK: fprintf(out, "feature option=\"%s -check %d\"\n", o->name, o->def != 0); break;
        case OPTION_BUTTON: fprintf(out, "feature option=\"%s -button\"\n", o->name); break;
        case OPTION_STRING:
            fprintf(out, "feature option=\"%s -string %s\"\n", o->name, eval_embedded_net_name());
            break;
        case OPTION_COMBO: break; /* the only one is UCI_Variant */
        }
    }
}

/* Case-insensitive match of a written name against `want`, where a run of blanks in the written name
 * matches one space or underscore in `want`. */
static bool name_matches(Span name, const char *want)
{
    size_t i = 0;
    const char *w = want;
    while (i < name.len && *w) {
        char c = name.text[i];
        if (c == ' ' || c == '\t' || c == '_') {
            if (*w != ' ' && *w != '_')
                return false;
            while (i < name.len && (name.text[i] == ' ' || name.text[i] == '\t'))
                i++;
            if (c == '_')
                i++;
            w++;
            continue;
        }
        char a = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c), b = (char)(*w >= 'A' && *w <= 'Z' ? *w + 32 : *w);
        if (a != b)
            return false;
        i++;
        w++;
    }
    return i == name.len && *w == '\0';
}

int options_find(Span name)
{
    for (int i = 0; i < OPTION_COUNT; i++)
        if (name_matches(name, option_defs[i].name) || name_matches(name, option_defs[i].ucci_name))
            return i; /* so `hashsize` works under UCI too, and `Hash` under UCCI */
    return -1;
}

bool options_parse_value(OptionId id, Span value, bool has_value, long long *out, char *err, size_t err_size)
{
    const OptionDef *o = &option_defs[id];
    char q[64];
    span_quote(value, q, sizeof q, 40);
    if (o->type == OPTION_BUTTON) {
        *out = 1;
        return true;
    }
    if (!has_value || value.len == 0) {
        snprintf(err, err_size, "option %s needs a value", o->name);
        return false;
    }
    switch (o->type) {
    case OPTION_SPIN: {
        char buf[32];
        bool ok = value.len < sizeof buf;
        long long v = 0;
        if (ok) {
            memcpy(buf, value.text, value.len);
            buf[value.len] = '\0';
            char *end;
            errno = 0;
            v = strtoll(buf, &end, 10);
            ok = (buf[0] == '-' || (buf[0] >= '0' && buf[0] <= '9')) && !*end && !errno && v >= o->min && v <= o->max;
        }
        if (!ok) {
            snprintf(err, err_size, "option %s must be a number from %lld to %lld, not '%s'", o->name, o->min, o->max,
                     q);
            return false;
        }
        *out = v;
        return true;
    }
    case OPTION_CHECK:
        if (span_equals(value, "true") || span_equals(value, "false")) {
            *out = span_equals(value, "true");
            return true;
        }
        snprintf(err, err_size, "option %s must be true or false, not '%s'", o->name, q);
        return false;
    case OPTION_COMBO:
        for (int k = 0; k < 4; k++)
            if (span_equals(value, rules_all[k]->name)) {
                *out = k;
                return true;
            }
        snprintf(err, err_size,
                 "option %s must be one of janggi, janggicasual, janggimodern, janggitraditional (exactly), not '%s'",
                 o->name, q);
        return false;
    case OPTION_BUTTON:
    case OPTION_STRING: break;
    }
    return false;
}

bool options_parse_text(OptionId id, Span value, bool has_value, char *text, char *err, size_t err_size)
{
    const OptionDef *o = &option_defs[id];
    if (!has_value || value.len == 0) {
        snprintf(err, err_size, "option %s needs a value", o->name);
        return false;
    }
    if (value.len >= OPTION_TEXT_SIZE) {
        snprintf(err, err_size, "option %s: a value of %zu bytes is longer than %d", o->name, value.len,
                 OPTION_TEXT_SIZE - 1);
        return false;
    }
    memcpy(text, value.text, value.len);
    text[value.len] = '\0';
    return true;
}

void options_strength_limits(const EngineOptions *opts, SearchLimits *limits)
{
    double level = skill_level((int)opts->value[OPTION_SKILL_LEVEL], opts->value[OPTION_LIMIT_STRENGTH] != 0,
                               (int)opts->value[OPTION_ELO]);
    limits->limit_strength = skill_enabled(level);
    limits->skill_level = level;
    limits->skill_seed = (uint64_t)opts->value[OPTION_SKILL_SEED];
}

ProtocolCaps protocol_caps;

void options_apply_caps(SearchLimits *limits)
{
    if (protocol_caps.nodes > 0 && (limits->nodes == 0 || limits->nodes > protocol_caps.nodes))
        limits->nodes = protocol_caps.nodes;
}
