/* Match statistics for janggun-match: Elo difference from a score with its 95% error bar (per game,
 * trinomial, or per game pair, pentanomial), the likelihood of superiority, and the pentanomial
 * generalised SPRT on logistic Elo bounds (fishtest's LLR_logistic). Pure arithmetic: it plays no
 * games and prints nothing. */
#ifndef JANGGUN_MATCH_STATS_H
#define JANGGUN_MATCH_STATS_H

#include <stdbool.h>

/* Game pairs (the same opening with colours reversed) by the first engine's score over the pair:
 * 0, 0.5, 1, 1.5 or 2 points. */
typedef struct {
    long n[5];
} Pentanomial;

typedef struct {
    double score;   /* mean score per game, 0..1 */
    double elo;     /* logistic Elo difference; +-INFINITY at a score of 1 or 0, NAN with no games */
    double error95; /* half-width of the 95% interval in Elo (INFINITY when unbounded) */
} EloEstimate;

/* Logistic Elo of a score and its inverse. */
double stats_elo_from_score(double score);
double stats_score_from_elo(double elo);

/* From game results (wins, draws, losses of the first engine). */
EloEstimate stats_elo_trinomial(long wins, long draws, long losses);

/* From game pairs: the same score, with the variance of the pair scores. */
EloEstimate stats_elo_pentanomial(const Pentanomial *p);

/* Likelihood of superiority, 0..1: 0.5 * (1 + erf((W - L) / sqrt(2 (W + L)))). */
double stats_los(long wins, long losses);

typedef struct {
    double elo0, elo1, alpha, beta;
} SprtConfig;

typedef enum { SPRT_CONTINUE, SPRT_H0, SPRT_H1 } SprtDecision;

/* The log-likelihood ratio of elo1 against elo0 (logistic Elo) for the pairs seen. Each empty
 * count is taken as 0.001 pairs, as fishtest and OpenBench do, so the estimate always exists. */
double stats_sprt_llr(const Pentanomial *p, double elo0, double elo1);

/* The stopping bounds: lower = log(beta / (1 - alpha)), upper = log((1 - beta) / alpha). */
void stats_sprt_bounds(const SprtConfig *c, double *lower, double *upper);

SprtDecision stats_sprt_decide(const SprtConfig *c, double llr);

#endif
