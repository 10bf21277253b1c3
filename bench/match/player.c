#define _POSIX_C_SOURCE 200809L /* strtok_r, getline, localtime_r, sigaction, gethostname */
#include "player.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- the description ---- */

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

bool player_spec_set(PlayerSpec *spec, const char *word, char *err, size_t err_size)
{
    const char *eq = strchr(word, '=');
    if (!eq || eq == word) {
        snprintf(err, err_size,
                 "engine settings are KEY=VALUE words (cmd, name, proto, dir, stderr, ponder, option.NAME), not '%s'",
                 word);
        return false;
    }
    size_t klen = (size_t)(eq - word);
    const char *value = eq + 1;
    char **target = NULL;
    if (klen == 3 && strncmp(word, "cmd", 3) == 0)
        target = &spec->cmd;
    else if (klen == 3 && strncmp(word, "dir", 3) == 0)
        target = &spec->dir;
    else if (klen == 6 && strncmp(word, "stderr", 6) == 0)
        target = &spec->stderr_path;
    if (target) {
        if (!*value) {
            snprintf(err, err_size, "engine setting '%.*s' needs a value", (int)klen, word);
            return false;
        }
        free(*target);
        *target = dup_text(value);
        return *target != NULL;
    }
    if (klen == 4 && strncmp(word, "name", 4) == 0) {
        if (!*value || strlen(value) >= sizeof spec->name || strpbrk(value, "\"\\\n")) {
            snprintf(err, err_size, "engine name must be 1 to %zu characters without quotes or backslashes, not '%s'",
                     sizeof spec->name - 1, value);
            return false;
        }
        snprintf(spec->name, sizeof spec->name, "%s", value);
        return true;
    }
    if (klen == 5 && strncmp(word, "proto", 5) == 0) {
        if (strcmp(value, "uci") == 0)
            spec->proto = PROTO_UCI;
        else if (strcmp(value, "ucci") == 0)
            spec->proto = PROTO_UCCI;
        else {
            snprintf(err, err_size, "proto must be uci or ucci, not '%s'", value);
            return false;
        }
        return true;
    }
    if (klen == 6 && strncmp(word, "ponder", 6) == 0) {
        if (strcmp(value, "on") == 0 || strcmp(value, "off") == 0) {
            spec->ponder = value[1] == 'n';
            return true;
        }
        snprintf(err, err_size, "ponder must be on or off, not '%s'", value);
        return false;
    }
    if (klen > 7 && strncmp(word, "option.", 7) == 0) {
        PlayerOption *opts = realloc(spec->options, (size_t)(spec->option_count + 1) * sizeof *opts);
        if (!opts)
            return false;
        spec->options = opts;
        PlayerOption *o = &opts[spec->option_count];
        o->name = malloc(klen - 6);
        o->value = dup_text(value);
        if (!o->name || !o->value) {
            free(o->name), free(o->value);
            return false;
        }
        memcpy(o->name, word + 7, klen - 7);
        o->name[klen - 7] = '\0';
        spec->option_count++;
        return true;
    }
    snprintf(err, err_size, "unknown engine setting '%.*s' (cmd, name, proto, dir, stderr, ponder, option.NAME)",
             (int)klen, word);
    return false;
}

bool player_spec_finish(PlayerSpec *spec, int index, char *err, size_t err_size)
{
    if (!spec->cmd) {
        snprintf(err, err_size, "engine %d has no cmd=...", index + 1);
        return false;
    }
    if (!spec->name[0]) {
        /* The last path part of the command's first word. */
        const char *start = spec->cmd + strspn(spec->cmd, " \t");
        size_t len = strcspn(start, " \t");
        const char *slash = start;
        for (size_t i = 0; i < len; i++)
            if (start[i] == '/')
                slash = start + i + 1;
        len -= (size_t)(slash - start);
        if (len == 0 || len >= sizeof spec->name)
            snprintf(spec->name, sizeof spec->name, "engine %d", index + 1);
        else
            snprintf(spec->name, sizeof spec->name, "%.*s", (int)len, slash);
    }
    return true;
}

void player_spec_free(PlayerSpec *spec)
{
    for (int i = 0; i < spec->option_count; i++)
        free(spec->options[i].name), free(spec->options[i].value);
    free(spec->options);
    free(spec->cmd), free(spec->dir), free(spec->stderr_path);
    memset(spec, 0, sizeof *spec);
}

/* ---- the conversation ---- */

static void log_line(Player *p, char dir, const char *text)
{
    TrafficLog *log = p->log;
    if (!log || !log->file)
        return;
    pthread_mutex_lock(&log->lock);
    double t = (double)(clock_us() - log->start_us) / 1e6;
    fprintf(log->file, "%10.3f %d %s %c %s\n", t, p->slot, p->spec->name, dir, text);
    fflush(log->file);
    pthread_mutex_unlock(&log->lock);
}

__attribute__((format(printf, 2, 3))) static PlayerStatus fail(Player *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->error, sizeof p->error, fmt, ap);
    va_end(ap);
    return PLAYER_CRASHED;
}

void player_init(Player *p, const PlayerSpec *spec, const char *variant, TrafficLog *log, int slot)
{
    memset(p, 0, sizeof *p);
    p->spec = spec;
    p->variant = variant;
    p->log = log;
    p->slot = slot;
    p->proc.to_fd = p->proc.from_fd = -1;
}

void player_reap(Player *p)
{
    char how[128];
    process_finish(&p->proc, 1000);
    process_describe_exit(&p->proc, how, sizeof how);
    log_line(p, '!', how);
    snprintf(p->error, sizeof p->error, "%s", how);
    p->running = false;
}

static void kill_now(Player *p)
{
    process_finish(&p->proc, 0);
    log_line(p, '!', "killed");
    p->running = false;
}

static bool send(Player *p, const char *text)
{
    log_line(p, '>', text);
    return process_write_line(&p->proc, text);
}

/* What a failed read or write means; the engine is reaped or killed. */
static PlayerStatus lost(Player *p, ProcessRead r, const char *waiting_for, long timeout_ms)
{
    if (r == PROCESS_INTERRUPTED) {
        kill_now(p);
        snprintf(p->error, sizeof p->error, "interrupted");
        return PLAYER_INTERRUPTED;
    }
    if (r == PROCESS_TIMEOUT) {
        kill_now(p);
        snprintf(p->error, sizeof p->error, "no %s within %.3g s", waiting_for, timeout_ms / 1000.0);
        return PLAYER_TIMEOUT;
    }
    char how[128];
    process_finish(&p->proc, 1000);
    process_describe_exit(&p->proc, how, sizeof how);
    log_line(p, '!', how);
    p->running = false;
    snprintf(p->error, sizeof p->error, "%s while waiting for %s", how, waiting_for);
    return PLAYER_CRASHED;
}

static PlayerStatus send_or_lose(Player *p, const char *text)
{
    if (send(p, text))
        return PLAYER_OK;
    return lost(p, PROCESS_EOF, "its input to be read", 0);
}

/* Reads until a line whose first word is `word`. */
static PlayerStatus wait_for(Player *p, const char *word, long timeout_ms, void (*each)(Player *, const char *))
{
    int64_t deadline = clock_us() + (int64_t)timeout_ms * 1000;
    for (;;) {
        const char *line;
        ProcessRead r = process_read_line(&p->proc, deadline, &line);
        if (r != PROCESS_LINE)
            return lost(p, r, word, timeout_ms);
        log_line(p, '<', line);
        const char *w = line + strspn(line, " \t");
        size_t n = strlen(word);
        if (strncmp(w, word, n) == 0 && (w[n] == '\0' || w[n] == ' ' || w[n] == '\t'))
            return PLAYER_OK;
        if (each)
            each(p, w);
    }
}

/* Option names compare without case, with spaces and underscores the same. */
static bool same_option_name(const char *a, size_t alen, const char *b)
{
    size_t blen = strlen(b);
    if (alen != blen)
        return false;
    for (size_t i = 0; i < alen; i++) {
        char x = a[i] == ' ' ? '_' : (char)tolower((unsigned char)a[i]);
        char y = b[i] == ' ' ? '_' : (char)tolower((unsigned char)b[i]);
        if (x != y)
            return false;
    }
    return true;
}

/* The names of the options the engine announced in its handshake. */
typedef struct {
    char names[64][64];
    int count;
} OptionList;

static void read_option_line(Player *p, const char *line)
{
    if (strncmp(line, "option ", 7) != 0)
        return;
    const char *name = line + 7 + strspn(line + 7, " ");
    if (p->spec->proto == PROTO_UCI || strncmp(name, "name ", 5) == 0) {
        if (strncmp(name, "name ", 5) != 0)
            return;
        name += 5;
    }
    const char *type = strstr(name, " type ");
    if (!type)
        return;
    size_t len = (size_t)(type - name);
    while (len > 0 && name[len - 1] == ' ')
        len--;
    if (same_option_name(name, len, "UCI_Variant")) {
        p->has_variant_option = true;
        /* "... type combo default X var a var b ..." */
        size_t vlen = strlen(p->variant);
        for (const char *v = strstr(type, " var "); v; v = strstr(v + 1, " var ")) {
            const char *value = v + 5;
            if (strncmp(value, p->variant, vlen) == 0 && (value[vlen] == ' ' || value[vlen] == '\0'))
                p->variant_listed = true;
        }
    } else if (same_option_name(name, len, "usemillisec")) {
        p->has_usemillisec = true;
    } else if (same_option_name(name, len, "Ponder")) {
        p->has_ponder_option = true;
    }
}

/* Per thread: each handshake is read by one thread, and warnings about unknown options use it. */
static _Thread_local OptionList announced;

static void collect_option(Player *p, const char *line)
{
    read_option_line(p, line);
    if (strncmp(line, "option ", 7) != 0 || announced.count >= 64)
        return;
    const char *name = line + 7 + strspn(line + 7, " ");
    if (strncmp(name, "name ", 5) == 0)
        name += 5;
    const char *type = strstr(name, " type ");
    if (!type)
        return;
    size_t len = (size_t)(type - name);
    if (len >= sizeof announced.names[0])
        return;
    memcpy(announced.names[announced.count], name, len);
    announced.names[announced.count++][len] = '\0';
}

static bool announced_option(const char *name)
{
    for (int i = 0; i < announced.count; i++)
        if (same_option_name(name, strlen(name), announced.names[i]))
            return true;
    return false;
}

static PlayerStatus set_option(Player *p, const char *name, const char *value)
{
    char line[512];
    if (p->spec->proto == PROTO_UCI) {
        if (*value)
            snprintf(line, sizeof line, "setoption name %s value %s", name, value);
        else
            snprintf(line, sizeof line, "setoption name %s", name);
    } else {
        char uname[256];
        snprintf(uname, sizeof uname, "%s", name);
        for (char *c = uname; *c; c++)
            if (*c == ' ')
                *c = '_';
        snprintf(line, sizeof line, "setoption %s%s%s", uname, *value ? " " : "", value);
    }
    return send_or_lose(p, line);
}

PlayerStatus player_start(Player *p, long timeout_ms)
{
    char err[256];
    p->has_variant_option = p->variant_listed = p->has_usemillisec = p->has_ponder_option = false;
    p->pondering = false;
    if (!process_start(&p->proc, p->spec->cmd, p->spec->dir, p->spec->stderr_path, err, sizeof err))
        return fail(p, "cannot start '%s': %s", p->spec->cmd, err);
    p->running = true;
    log_line(p, '!', "started");
    bool uci = p->spec->proto == PROTO_UCI;
    PlayerStatus s = send_or_lose(p, uci ? "uci" : "ucci");
    announced.count = 0;
    if (s == PLAYER_OK)
        s = wait_for(p, uci ? "uciok" : "ucciok", timeout_ms, collect_option);
    if (s != PLAYER_OK)
        return s;
    for (int i = 0; i < p->spec->option_count; i++) {
        const PlayerOption *o = &p->spec->options[i];
        if (p->warn && !announced_option(o->name))
            fprintf(stderr, "janggun-match: warning: %s does not announce an option '%s'; it is sent anyway\n",
                    p->spec->name, o->name);
        if ((s = set_option(p, o->name, o->value)) != PLAYER_OK)
            return s;
    }
    if (p->has_variant_option) {
        if (!p->variant_listed) {
            kill_now(p);
            snprintf(p->error, sizeof p->error, "%s does not list the variant '%s' in its UCI_Variant option",
                     p->spec->name, p->variant);
            return PLAYER_REFUSED;
        }
        if ((s = set_option(p, "UCI_Variant", p->variant)) != PLAYER_OK)
            return s;
    } else if (p->warn) {
        fprintf(stderr, "janggun-match: warning: %s has no UCI_Variant option; assuming it plays %s\n", p->spec->name,
                p->variant);
    }
    if (!uci && p->has_usemillisec && (s = set_option(p, "usemillisec", "true")) != PLAYER_OK)
        return s;
    /* UCI asks for the option before a GUI ponders; a Ponder the user set is sent again, unchanged. */
    if (p->spec->ponder && p->has_ponder_option && (s = set_option(p, "Ponder", "true")) != PLAYER_OK)
        return s;
    p->warn = false;
    if ((s = send_or_lose(p, "isready")) != PLAYER_OK)
        return s;
    return wait_for(p, "readyok", timeout_ms, NULL);
}

PlayerStatus player_new_game(Player *p, long timeout_ms)
{
    PlayerStatus s = send_or_lose(p, p->spec->proto == PROTO_UCI ? "ucinewgame" : "uccinewgame");
    if (s == PLAYER_OK)
        s = send_or_lose(p, "isready");
    if (s == PLAYER_OK)
        s = wait_for(p, "readyok", timeout_ms, NULL);
    return s;
}

/* Reads the score, depth and nodes of an info line (the first PV only). */
static void read_info(const char *line, PlayerReply *reply)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", line);
    char *save = NULL, *tok = strtok_r(buf, " \t", &save);
    bool has_score = false, mate = false;
    int score = 0, depth = -1;
    long long nodes = -1;
    while ((tok = strtok_r(NULL, " \t", &save))) {
        if (strcmp(tok, "multipv") == 0) {
            char *v = strtok_r(NULL, " \t", &save);
            if (v && atoi(v) > 1)
                return;
        } else if (strcmp(tok, "depth") == 0) {
            char *v = strtok_r(NULL, " \t", &save);
            if (v)
                depth = atoi(v);
        } else if (strcmp(tok, "nodes") == 0) {
            char *v = strtok_r(NULL, " \t", &save);
            if (v)
                nodes = atoll(v);
        } else if (strcmp(tok, "score") == 0) {
            char *v = strtok_r(NULL, " \t", &save);
            if (!v)
                break;
            if (strcmp(v, "cp") == 0 || strcmp(v, "mate") == 0) {
                mate = v[0] == 'm';
                v = strtok_r(NULL, " \t", &save);
            }
            if (v && (isdigit((unsigned char)v[0]) || (v[0] == '-' && isdigit((unsigned char)v[1])))) {
                score = atoi(v);
                has_score = true;
            }
        } else if (strcmp(tok, "pv") == 0 || strcmp(tok, "string") == 0) {
            break;
        }
    }
    if (has_score) {
        reply->has_score = true;
        reply->mate = mate;
        reply->score = score;
    }
    if (depth >= 0 && has_score)
        reply->depth = depth;
    if (nodes >= 0)
        reply->nodes = nodes;
}

/* position (the game, then `extra` when not NULL) and go with the limits (`go ponder` when pondering). */
static PlayerStatus send_position_go(Player *p, const Game *game, const char *extra, const GoLimits *limits,
                                     bool ponder)
{
    bool uci = p->spec->proto == PROTO_UCI;
    RankBase base = uci ? RANKS_FROM_1 : RANKS_FROM_0;
    size_t size = 160 + (size_t)game->length * 8 + (extra ? strlen(extra) : 0);
    char *cmd = malloc(size);
    if (!cmd)
        return fail(p, "out of memory");
    size_t used = (size_t)snprintf(cmd, size, "position fen %s", game->start_fen);
    for (int i = 0; i < game->length; i++) {
        char mt[MOVE_TEXT_SIZE];
        move_to_text(game->moves[i], base, mt);
        used += (size_t)snprintf(cmd + used, size - used, "%s%s", i ? " " : " moves ", mt);
    }
    if (extra)
        snprintf(cmd + used, size - used, "%s%s", game->length ? " " : " moves ", extra);
    PlayerStatus s = send_or_lose(p, cmd);
    free(cmd);
    if (s != PLAYER_OK)
        return s;

    char go[256];
    used = (size_t)snprintf(go, sizeof go, "go%s", ponder ? " ponder" : "");
    Color us = extra ? color_flip(game->pos.side) : game->pos.side, them = color_flip(us);
    if (limits->clock) {
        if (uci)
            used += (size_t)snprintf(go + used, sizeof go - used, " wtime %ld btime %ld winc %ld binc %ld",
                                     limits->time_ms[WHITE], limits->time_ms[BLACK], limits->inc_ms[WHITE],
                                     limits->inc_ms[BLACK]);
        else {
            long div = p->has_usemillisec ? 1 : 1000;
            used += (size_t)snprintf(go + used, sizeof go - used,
                                     " time %ld increment %ld opptime %ld oppincrement %ld", limits->time_ms[us] / div,
                                     limits->inc_ms[us] / div, limits->time_ms[them] / div, limits->inc_ms[them] / div);
        }
        if (limits->movestogo)
            used += (size_t)snprintf(go + used, sizeof go - used, " movestogo %d", limits->movestogo);
    }
    if (limits->movetime_ms)
        used += (size_t)snprintf(go + used, sizeof go - used, " movetime %ld", limits->movetime_ms);
    if (limits->nodes)
        used += (size_t)snprintf(go + used, sizeof go - used, " nodes %ld", limits->nodes);
    if (limits->depth)
        snprintf(go + used, sizeof go - used, " depth %d", limits->depth);
    return send_or_lose(p, go);
}

/* The first word of `w` is `word`. */
static bool starts_word(const char *w, const char *word)
{
    size_t n = strlen(word);
    return strncmp(w, word, n) == 0 && (w[n] == ' ' || w[n] == '\t' || w[n] == '\0');
}

/* The word after `w`'s first one, into buf ("" when none). */
static void copy_word(const char *w, size_t skip, char *buf, size_t size)
{
    const char *m = w + skip + strspn(w + skip, " \t");
    size_t len = strcspn(m, " \t");
    if (len < size)
        snprintf(buf, size, "%.*s", (int)len, m);
    else
        snprintf(buf, size, "%.40s...", m);
}

/* Reads until bestmove (or nobestmove) or the deadline; the time counts from `start`. */
static PlayerStatus read_bestmove(Player *p, int64_t start, int64_t deadline_us, PlayerReply *reply)
{
    for (;;) {
        const char *line;
        ProcessRead r = process_read_line(&p->proc, deadline_us, &line);
        if (r == PROCESS_TIMEOUT) {
            /* Not killed: the caller decides (engine_settle). */
            reply->elapsed_ms = (long)((clock_us() - start) / 1000);
            snprintf(p->error, sizeof p->error, "no move after %.3f s", reply->elapsed_ms / 1000.0);
            return PLAYER_TIMEOUT;
        }
        if (r != PROCESS_LINE)
            return lost(p, r, "a move", 0);
        int64_t now = clock_us();
        log_line(p, '<', line);
        const char *w = line + strspn(line, " \t");
        if (strncmp(w, "info ", 5) == 0) {
            read_info(w, reply);
        } else if (starts_word(w, "bestmove")) {
            copy_word(w, 8, reply->move, sizeof reply->move);
            const char *after = w + 8 + strspn(w + 8, " \t");
            after += strcspn(after, " \t");
            after += strspn(after, " \t");
            if (starts_word(after, "ponder"))
                copy_word(after, 6, reply->ponder, sizeof reply->ponder);
            reply->elapsed_ms = (long)((now - start) / 1000);
            return PLAYER_OK;
        } else if (starts_word(w, "nobestmove")) {
            reply->move[0] = '\0';
            reply->elapsed_ms = (long)((now - start) / 1000);
            return PLAYER_OK;
        }
    }
}

PlayerStatus player_go(Player *p, const Game *game, const GoLimits *limits, int64_t deadline_us, PlayerReply *reply)
{
    memset(reply, 0, sizeof *reply);
    int64_t start = clock_us();
    PlayerStatus s;
    if (p->pondering) {
        p->pondering = false;
        char last[MOVE_TEXT_SIZE] = "";
        if (game->length > 0)
            move_to_text(game->moves[game->length - 1], p->spec->proto == PROTO_UCI ? RANKS_FROM_1 : RANKS_FROM_0,
                         last);
        if (strcmp(last, p->ponder_on) == 0) {
            reply->ponderhit = true;
            if ((s = send_or_lose(p, "ponderhit")) != PLAYER_OK)
                return s;
            return read_bestmove(p, clock_us(), deadline_us, reply);
        }
        /* A miss: the stale answer is read on the engine's own time, as its clock already runs. */
        reply->pondermiss = true;
        if ((s = send_or_lose(p, "stop")) != PLAYER_OK)
            return s;
        PlayerReply stale = {0};
        if ((s = read_bestmove(p, start, deadline_us, &stale)) != PLAYER_OK) {
            reply->elapsed_ms = stale.elapsed_ms;
            return s;
        }
    }
    if ((s = send_position_go(p, game, NULL, limits, false)) != PLAYER_OK)
        return s;
    return read_bestmove(p, start, deadline_us, reply);
}

PlayerStatus player_ponder(Player *p, const Game *game, const char *move, const GoLimits *limits)
{
    Move m;
    RankBase base = p->spec->proto == PROTO_UCI ? RANKS_FROM_1 : RANKS_FROM_0;
    if (!p->running || strlen(move) >= sizeof p->ponder_on || move_parse(&game->pos, move, base, &m) != MOVE_PARSE_OK)
        return PLAYER_OK;
    char text[MOVE_TEXT_SIZE];
    move_to_text(m, base, text); /* the runner's spelling, to compare with the move played */
    PlayerStatus s = send_position_go(p, game, text, limits, true);
    if (s == PLAYER_OK) {
        p->pondering = true;
        snprintf(p->ponder_on, sizeof p->ponder_on, "%s", text);
    }
    return s;
}

void player_stop_pondering(Player *p, long grace_ms)
{
    if (p->pondering) {
        p->pondering = false;
        player_settle(p, grace_ms);
    }
}

void player_settle(Player *p, long grace_ms)
{
    if (!p->running)
        return;
    if (!send(p, "stop")) {
        player_reap(p);
        return;
    }
    int64_t deadline = clock_us() + (int64_t)grace_ms * 1000;
    for (;;) {
        const char *line;
        ProcessRead r = process_read_line(&p->proc, deadline, &line);
        if (r != PROCESS_LINE) {
            if (r == PROCESS_EOF)
                player_reap(p);
            else
                kill_now(p);
            return;
        }
        log_line(p, '<', line);
        const char *w = line + strspn(line, " \t");
        if (strncmp(w, "bestmove", 8) == 0 || strncmp(w, "nobestmove", 10) == 0)
            return;
    }
}

void player_quit(Player *p, long grace_ms)
{
    if (!p->running)
        return;
    send(p, "quit");
    process_finish(&p->proc, (int)grace_ms);
    log_line(p, '!', "quit");
    p->running = false;
}
