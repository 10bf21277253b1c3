#include "perft.h"

uint64_t perft(Position *pos, int depth)
{
    if (depth <= 0)
        return 1;
    if (depth == 1)
        return (uint64_t)movegen_count_legal(pos);
    MoveList list;
    movegen_legal(pos, &list);
    uint64_t nodes = 0;
    StateInfo st;
    for (int i = 0; i < list.count; i++) {
        position_make(pos, list.moves[i], &st);
        nodes += perft(pos, depth - 1);
        position_unmake(pos);
    }
    return nodes;
}

uint64_t perft_divide(Position *pos, int depth, MoveList *root, uint64_t counts[MAX_MOVES])
{
    movegen_legal(pos, root);
    uint64_t total = 0;
    StateInfo st;
    for (int i = 0; i < root->count; i++) {
        position_make(pos, root->moves[i], &st);
        counts[i] = perft(pos, depth - 1);
        position_unmake(pos);
        total += counts[i];
    }
    return total;
}
