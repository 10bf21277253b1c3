#include "rules.h"

#include <string.h>

const RuleSet RULES_JANGGI = {"janggi", true, true, 3, 100, false};
const RuleSet RULES_JANGGITRADITIONAL = {"janggitraditional", true, false, 3, 100, false};
const RuleSet RULES_JANGGIMODERN = {"janggimodern", false, true, 4, 200, true};
const RuleSet RULES_JANGGICASUAL = {"janggicasual", false, false, 3, 100, false};

const RuleSet *const rules_all[4] = {&RULES_JANGGI, &RULES_JANGGICASUAL, &RULES_JANGGIMODERN, &RULES_JANGGITRADITIONAL};

const RuleSet *rules_by_name(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(rules_all[i]->name, name) == 0)
            return rules_all[i];
    return NULL;
}
