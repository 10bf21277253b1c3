/* The four Janggi rule sets and the flags in which they differ (fsf-reference.md section 3.1).
 * Movement is identical in all of them; only the ways a game ends change. */
#ifndef JANGGUN_RULES_H
#define JANGGUN_RULES_H

#include <stdbool.h>

typedef struct {
    const char *name;
    bool bikjang;           /* facing generals restrict moves and can end the game */
    bool material_counting; /* drawn endings are decided by counting with the deom */
    int nfold;              /* occurrences of a position that end the game */
    int nmove_plies;        /* plies without capture that end the game */
    bool kakao_repetition;  /* moving one piece back and forth loses */
} RuleSet;

extern const RuleSet RULES_JANGGI, RULES_JANGGITRADITIONAL, RULES_JANGGIMODERN, RULES_JANGGICASUAL;

/* The rule set with exactly this name (case-sensitive, as FSF), or NULL. */
const RuleSet *rules_by_name(const char *name);

/* Names in the order GUIs list them: "janggi janggicasual janggimodern janggitraditional". */
extern const RuleSet *const rules_all[4];

#endif
