/* The shipped openings file (bench/data/openings.epd), embedded in janggun-match at build time with
 * the assembler's .incbin, so that the default openings need no file beside the binary. The Makefile
 * passes the path as JANGGUN_OPENINGS and rebuilds this object when the file changes. */
#ifndef JANGGUN_OPENINGS
#error "JANGGUN_OPENINGS must name the openings file, e.g. -DJANGGUN_OPENINGS='\"bench/data/openings.epd\"'"
#endif

__asm__(".section .rodata\n"
        ".global openings_builtin_blob\n"
        ".type openings_builtin_blob, @object\n"
        "openings_builtin_blob:\n"
        ".incbin \"" JANGGUN_OPENINGS "\"\n"
        ".global openings_builtin_blob_end\n"
        ".type openings_builtin_blob_end, @object\n"
        "openings_builtin_blob_end:\n"
        ".byte 0\n"
        ".previous\n");

const char openings_builtin_path[] = JANGGUN_OPENINGS;
