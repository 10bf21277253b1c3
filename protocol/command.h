/* Protocol commands: one input line of UCI or UCCI parsed into a plain struct, with nothing done yet.
 * The parser checks the syntax only (keywords, numbers and their ranges); whether a FEN, a move or an
 * option exists is decided when the command runs, against the position and the option table. The
 * struct points into the line, which must outlive it. */
#ifndef JANGGUN_COMMAND_H
#define JANGGUN_COMMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* XBoard/CECP lines are read by xboard.c; PROTO_XBOARD is here for the text shared with it (ranks 0-9). */
typedef enum { PROTO_UCI, PROTO_UCCI, PROTO_XBOARD } Protocol;

/* A piece of the line: one token, or a run of tokens with the blanks between them. */
typedef struct {
    const char *text;
    size_t len;
} Span;

/* Tokens in a row (moves): `first` spans all of them. */
typedef struct {
    Span all;
    int count;
} TokenList;

typedef enum {
    CMD_NONE,  /* an empty line or a `#` comment */
    CMD_ERROR, /* malformed: `message` says why; nothing is done */
    CMD_UCI,
    CMD_UCCI,
    CMD_XBOARD, /* the CECP handshake: xboard.c reads the lines from there on */
    CMD_ISREADY,
    CMD_SETOPTION,
    CMD_NEWGAME, /* ucinewgame, uccinewgame */
    CMD_POSITION,
    CMD_BANMOVES,
    CMD_GO,
    CMD_PERFT, /* go perft N */
    CMD_STOP,
    CMD_PONDERHIT,
    CMD_QUIT,
    CMD_DISPLAY, /* d */
    CMD_EVAL,
    CMD_BENCH
} CommandKind;

typedef struct {
    bool startpos;
    Span fen; /* when !startpos */
    TokenList moves;
} PositionCommand;

typedef struct {
    Span name; /* as written: words with the blanks between them */
    Span value;
    bool has_value;
} SetOptionCommand;

/* Clock fields: the UCI ones by colour, the UCCI ones by side (the mover, the opponent). */
enum {
    CLOCK_WTIME,
    CLOCK_BTIME,
    CLOCK_WINC,
    CLOCK_BINC,
    CLOCK_TIME,
    CLOCK_OPPTIME,
    CLOCK_INC,
    CLOCK_OPPINC,
    CLOCK_FIELDS
};

typedef struct {
    int64_t clock[CLOCK_FIELDS];
    bool has_clock[CLOCK_FIELDS];
    int movestogo;    /* 0 = none */
    int depth;        /* 0 = none */
    uint64_t nodes;   /* 0 = none */
    int64_t movetime; /* 0 = none */
    int mate;         /* 0 = none */
    bool infinite, ponder;
    bool has_searchmoves;
    TokenList searchmoves;
} GoCommand;

enum { COMMAND_MESSAGE_SIZE = 320 };

typedef struct {
    CommandKind kind;
    Span word; /* the command word as written */
    union {
        PositionCommand position;
        SetOptionCommand setoption;
        TokenList banmoves;
        GoCommand go;
        int perft_depth;
        int bench_depth; /* 0 = the default */
    } u;
    /* CMD_ERROR: why the line was refused. Otherwise, when not empty: what was ignored in a command
     * that still runs (an unknown `go` parameter, clocks under `go infinite`, extra words). */
    char message[COMMAND_MESSAGE_SIZE];
} Command;

enum { GO_MAX_DEPTH = 127, GO_MAX_MATE = 63, PERFT_MAX_DEPTH = 20, BENCH_MAX_DEPTH = 64 };

void command_parse(const char *line, Protocol proto, Command *cmd);

/* Token helpers for the code that runs commands. */
bool span_next_token(const char **cursor, const char *end, Span *token);
bool span_equals(Span s, const char *word);
/* A decimal integer in [min, max], with an optional sign and nothing else in the token. */
bool span_parse_int(Span tok, int64_t min, int64_t max, int64_t *out);
/* Writes `s` into buf for a message: at most max_chars characters (then "..."), with bytes that are not
 * printable ASCII as \xNN. */
void span_quote(Span s, char *buf, size_t size, size_t max_chars);

#endif
