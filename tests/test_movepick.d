tests/test_movepick: tests/test_movepick.c tests/../search/movepick.h \
 tests/../search/../engine/movegen.h tests/../search/../engine/position.h \
 tests/../search/../engine/bitboard.h tests/../search/../engine/types.h \
 tests/../search/../engine/rules.h tests/../search/search.h \
 tests/../search/../engine/game.h tests/../search/../engine/move.h \
 tests/../search/../engine/referee.h tests/../search/skill.h \
 tests/../search/../engine/types.h tests/../search/timeman.h \
 tests/../search/tt.h tests/../search/tunables.h tests/../search/see.h \
 tests/../search/../engine/position.h tests/support.h \
 tests/../engine/base/base.h tests/../engine/move.h \
 tests/../engine/movegen.h
tests/../search/movepick.h:
tests/../search/../engine/movegen.h:
tests/../search/../engine/position.h:
tests/../search/../engine/bitboard.h:
tests/../search/../engine/types.h:
tests/../search/../engine/rules.h:
tests/../search/search.h:
tests/../search/../engine/game.h:
tests/../search/../engine/move.h:
tests/../search/../engine/referee.h:
tests/../search/skill.h:
tests/../search/../engine/types.h:
tests/../search/timeman.h:
tests/../search/tt.h:
tests/../search/tunables.h:
tests/../search/see.h:
tests/../search/../engine/position.h:
tests/support.h:
tests/../engine/base/base.h:
tests/../engine/move.h:
tests/../engine/movegen.h:
