/* The weight file, embedded in the binary at build time with the assembler's .incbin. The Makefile
 * passes its path (nets/janggun-<sha12>.weights) as JANGGUN_WEIGHTS and rebuilds this object when the
 * file changes or is renamed. A NUL byte after the text makes it a C string as well. */
#ifndef JANGGUN_WEIGHTS
#error "JANGGUN_WEIGHTS must name the weight file, e.g. -DJANGGUN_WEIGHTS='\"nets/janggun-0123456789ab.weights\"'"
#endif

__asm__(".section .rodata\n"
        ".global eval_weights_blob\n"
        ".type eval_weights_blob, @object\n"
        ".balign 16\n"
        "eval_weights_blob:\n"
        ".incbin \"" JANGGUN_WEIGHTS "\"\n"
        ".global eval_weights_blob_end\n"
        ".type eval_weights_blob_end, @object\n"
        "eval_weights_blob_end:\n"
        ".byte 0\n"
        ".previous\n");

const char eval_weights_path[] = JANGGUN_WEIGHTS;
