/* The shipped net file, embedded in the binary at build time with the assembler's .incbin. The Makefile
 * passes its path (nets/janggun-<sha12>.nnue) as JANGGUN_NET and rebuilds this object when the file
 * changes or is renamed. */
#ifndef JANGGUN_NET
#error "JANGGUN_NET must name the net file, e.g. -DJANGGUN_NET='\"nets/janggun-0123456789ab.nnue\"'"
#endif

__asm__(".section .rodata\n"
        ".global eval_net_blob\n"
        ".type eval_net_blob, @object\n"
        ".balign 64\n"
        "eval_net_blob:\n"
        ".incbin \"" JANGGUN_NET "\"\n"
        ".global eval_net_blob_end\n"
        ".type eval_net_blob_end, @object\n"
        "eval_net_blob_end:\n"
        ".previous\n");

const char eval_net_path[] = JANGGUN_NET;
