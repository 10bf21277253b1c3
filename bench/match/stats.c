#include "stats.h"

#include <math.h>

/* The 97.5% quantile of the standard normal distribution. */
static const double Z975 = 1.959963984540054;

double stats_elo_from_score(double score)
{
    if (isnan(score))
        return NAN;
    if (score <= 0)
        return -INFINITY;
    if (score >= 1)
        return INFINITY;
    return -400.0 * log10(1.0 / score - 1.0);
}

double stats_score_from_elo(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

/* The estimate from the mean score and its standard error. */
static EloEstimate estimate(double mu, double se)
{
    EloEstimate e = {mu, stats_elo_from_score(mu), INFINITY};
    double lo = mu - Z975 * se, hi = mu + Z975 * se;
    if (lo > 0 && hi < 1)
        e.error95 = (stats_elo_from_score(hi) - stats_elo_from_score(lo)) / 2;
    return e;
}

EloEstimate stats_elo_trinomial(long wins, long draws, long losses)
{
    double n = (double)(wins + draws + losses);
    if (n <= 0)
        return (EloEstimate){NAN, NAN, INFINITY};
    double w = wins / n, d = draws / n, l = losses / n;
    double mu = w + d / 2;
    double var = w * (1 - mu) * (1 - mu) + d * (0.5 - mu) * (0.5 - mu) + l * mu * mu;
    return estimate(mu, sqrt(var / n));
}

EloEstimate stats_elo_pentanomial(const Pentanomial *p)
{
    double n = 0, mu = 0, var = 0;
    for (int i = 0; i < 5; i++)
        n += (double)p->n[i];
    if (n <= 0)
        return (EloEstimate){NAN, NAN, INFINITY};
    for (int i = 0; i < 5; i++)
        mu += p->n[i] / n * (i / 4.0);
    for (int i = 0; i < 5; i++)
        var += p->n[i] / n * (i / 4.0 - mu) * (i / 4.0 - mu);
    return estimate(mu, sqrt(var / n));
}

double stats_los(long wins, long losses)
{
    if (wins + losses == 0)
        return 0.5;
    return 0.5 * (1 + erf((double)(wins - losses) / sqrt(2.0 * (double)(wins + losses))));
}

/* The maximum-likelihood distribution on the outcomes x[i] (frequencies f[i], all positive) whose
 * mean is s: p[i] = f[i] / (1 + theta (x[i] - s)), with theta the root of
 * sum f[i] (x[i] - s) / (1 + theta (x[i] - s)) = 0, a decreasing function of theta on the interval
 * where every denominator is positive; found by bisection. */
static void mle_with_mean(const double f[5], const double x[5], double s, double p[5])
{
    double lo = -1.0 / (x[4] - s), hi = 1.0 / (s - x[0]);
    for (int iter = 0; iter < 200; iter++) {
        double mid = (lo + hi) / 2, g = 0;
        for (int i = 0; i < 5; i++)
            g += f[i] * (x[i] - s) / (1 + mid * (x[i] - s));
        if (g > 0)
            lo = mid;
        else
            hi = mid;
    }
    double theta = (lo + hi) / 2, sum = 0;
    for (int i = 0; i < 5; i++)
        sum += p[i] = f[i] / (1 + theta * (x[i] - s));
    for (int i = 0; i < 5; i++)
        p[i] /= sum;
}

double stats_sprt_llr(const Pentanomial *p, double elo0, double elo1)
{
    static const double x[5] = {0, 0.25, 0.5, 0.75, 1};
    double counts[5], n = 0, f[5];
    for (int i = 0; i < 5; i++) {
        counts[i] = p->n[i] > 0 ? (double)p->n[i] : 1e-3;
        n += counts[i];
    }
    for (int i = 0; i < 5; i++)
        f[i] = counts[i] / n;
    double p0[5], p1[5];
    mle_with_mean(f, x, stats_score_from_elo(elo0), p0);
    mle_with_mean(f, x, stats_score_from_elo(elo1), p1);
    double llr = 0;
    for (int i = 0; i < 5; i++)
        llr += counts[i] * log(p1[i] / p0[i]);
    return llr;
}

void stats_sprt_bounds(const SprtConfig *c, double *lower, double *upper)
{
    *lower = log(c->beta / (1 - c->alpha));
    *upper = log((1 - c->beta) / c->alpha);
}

SprtDecision stats_sprt_decide(const SprtConfig *c, double llr)
{
    double lower, upper;
    stats_sprt_bounds(c, &lower, &upper);
    return llr >= upper ? SPRT_H1 : llr <= lower ? SPRT_H0 : SPRT_CONTINUE;
}
